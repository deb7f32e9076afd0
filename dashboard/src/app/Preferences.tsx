import { useState } from 'react';
import { Field } from '../components/Field';
import { labelledOptions, Options } from '../components/FilterSelect';
import { useI18n } from '../i18n/I18nProvider';
import { LANGUAGES, type Language } from '../i18n/languages';
import { chooseTheme, storedTheme, THEMES, type Theme } from '../theme';

/** The language and theme pickers, on the sign-in screen and in the top bar. */
export function Preferences() {
  const { t, language, setLanguage } = useI18n();
  const [theme, setTheme] = useState<Theme>(storedTheme);

  return (
    <div className="preferences">
      <Field label={t.app.language} className="compact">
        {(control) => (
          <select
            {...control}
            value={language}
            onChange={(event) => setLanguage(event.target.value as Language)}
          >
            {(Object.keys(LANGUAGES) as Language[]).map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGES[code]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.app.theme} className="compact">
        {(control) => (
          <select
            {...control}
            value={theme}
            onChange={(event) => {
              const next = event.target.value as Theme;
              chooseTheme(next);
              setTheme(next);
            }}
          >
            <Options options={labelledOptions(THEMES, t.app.themes)} />
          </select>
        )}
      </Field>
    </div>
  );
}
