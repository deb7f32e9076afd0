import { SpaceColorValues } from '../api/enums';
import type { SpaceColor } from '../api/types';
import { useT } from '../i18n/I18nProvider';
import { FieldErrors } from './Field';

/** The palette's colours (spaces and tags share it), each a radio named for those who cannot see it. */
export function ColorField({
  value,
  onChange,
  errors,
}: {
  value: SpaceColor;
  onChange: (color: SpaceColor) => void;
  errors?: readonly string[] | undefined;
}) {
  const t = useT();
  return (
    <fieldset className="colors">
      <legend>{t.spaces.color}</legend>
      {SpaceColorValues.map((color) => (
        <label key={color} className="color-choice">
          <input
            type="radio"
            name="color"
            value={color}
            checked={value === color}
            onChange={() => onChange(color)}
          />
          <span className={`space-dot space-color-${color}`} aria-hidden="true" />
          {t.spaces.colors[color]}
        </label>
      ))}
      <FieldErrors errors={errors} />
    </fieldset>
  );
}
