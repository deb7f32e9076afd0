import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/describe';
import { QrErrorCorrectionValues, QrStyleValues } from '../../api/enums';
import { isApiError, type FieldErrors } from '../../api/errors';
import type { Link, QrErrorCorrection } from '../../api/types';
import { saveBlob } from '../../download';
import { Choices } from '../../components/Choices';
import { Dialog } from '../../components/Dialog';
import { Field, FormAlert } from '../../components/Field';
import { HexColorField } from '../../components/HexColorField';
import { LoadError, Loading } from '../../components/LoadState';
import { NumberInput } from '../../components/NumberInput';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useLoad } from '../../hooks/useLoad';
import { useI18n } from '../../i18n/I18nProvider';
import { QrLogoFields } from './QrLogoFields';
import {
  contrastOf,
  DEFAULT_DESIGN,
  designQuery,
  hexColour,
  LOGO_ECC_LEVELS,
  MIN_CONTRAST,
  parseQrSvg,
  withLogo,
  type QrDesign,
  type QrShape,
} from './qrDesign';

const DOWNLOAD_SIZES = [256, 512, 1024, 2048] as const;
/** The pause after a change before the preview is drawn again: one request per pause in typing, not per key. */
const PREVIEW_DELAY_MS = 300;
/** The fields whose 422 stands beside their control; a message on any other is listed above the buttons. */
const SHOWN_FIELDS: readonly string[] = ['fg', 'bg', 'margin', 'ecc', 'style', 'logo'];

/** The code as the API drew it, drawn again by React from the parsed SVG: its outlines, and its logo as an image. */
function QrPreview({ shape, label }: { shape: QrShape; label: string }) {
  return (
    <svg
      className="qr"
      viewBox={shape.viewBox}
      role="img"
      aria-label={label}
      shapeRendering={shape.crisp ? 'crispEdges' : undefined}
    >
      {shape.paths.map((path, index) => (
        <path key={index} d={path.d} fill={path.fill ?? 'none'} stroke={path.stroke} />
      ))}
      {shape.logo && (
        <image
          x={shape.logo.x}
          y={shape.logo.y}
          width={shape.logo.width}
          height={shape.logo.height}
          href={shape.logo.href}
          preserveAspectRatio="xMidYMid meet"
        />
      )}
    </svg>
  );
}

/** What the last download was refused for: the reader's sentence, and the API's messages by field. */
interface Failure {
  message: string;
  fields: FieldErrors;
}

/**
 * The QR designer of a link: colours (their contrast measured as the API measures it), quiet zone, error
 * correction, modules and logo, with a preview that follows each change once typing pauses, and SVG and PNG
 * downloads of the design at the size chosen. Every refusal is the API's, shown on the field it names.
 */
export function QrDialog({ link, onClose }: { link: Link; onClose: () => void }) {
  const { t, language } = useI18n();
  const [design, setDesign] = useState<QrDesign>(DEFAULT_DESIGN);
  const [size, setSize] = useState<number>(1024);
  // Counts the logo's uploads and removals: the same design draws another code once the logo changed.
  const [logoChanges, setLogoChanges] = useState(0);
  const [failure, setFailure] = useState<Failure | null>(null);
  const settled = useDebouncedValue(design, PREVIEW_DELAY_MS);
  const query = designQuery(settled);
  const path = { id: link.id };

  const preview = useLoad(`qr:${link.id}:${logoChanges}:${JSON.stringify(query)}`, async (signal) => {
    const text = await call(
      api.GET('/api/v1/links/{id}/qr', {
        params: { path, query: { ...query, format: 'svg' } },
        parseAs: 'text',
        signal,
      }),
    );
    return parseQrSvg(String(text));
  });
  const refused = isApiError(preview.error) && preview.error.status === 422 ? preview.error.fields : null;

  const change = (next: QrDesign) => {
    setFailure(null);
    setDesign(next);
  };
  const edit = (changes: Partial<QrDesign>) => change({ ...design, ...changes });

  /** The API's messages on `name`, from the preview and the last download, each once. */
  const errorsOf = (name: string): string[] | undefined => {
    const messages = new Set([...(refused?.[name] ?? []), ...(failure?.fields[name] ?? [])]);
    return messages.size === 0 ? undefined : [...messages];
  };
  const otherErrors = Object.fromEntries(
    Object.entries({ ...refused, ...failure?.fields }).filter(([name]) => !SHOWN_FIELDS.includes(name)),
  );

  const download = async (format: 'svg' | 'png') => {
    setFailure(null);
    try {
      const blob = await call(
        api.GET('/api/v1/links/{id}/qr', {
          params: { path, query: { ...designQuery(design), format, size } },
          parseAs: 'blob',
        }),
      );
      saveBlob(blob, `${link.alias}.${format}`);
    } catch (error) {
      setFailure({
        message: describeError(t, error),
        fields: isApiError(error) && error.status === 422 ? error.fields : {},
      });
    }
  };

  const ratio = contrastOf(design.fg, design.bg);
  const shown = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const contrastHint =
    ratio === null
      ? undefined
      : ratio >= MIN_CONTRAST
        ? t.qr.contrast(shown.format(ratio))
        : t.qr.contrastLow(shown.format(ratio));
  const levels = design.logo ? LOGO_ECC_LEVELS : QrErrorCorrectionValues;

  return (
    <Dialog title={t.qr.title(link.short_url)} onClose={onClose} wide>
      <div className="qr-designer">
        <div className="qr-preview" aria-busy={preview.loading || design !== settled}>
          {preview.data === undefined && preview.loading && <Loading lines={2} />}
          {refused !== null && <p className="error-text">{t.qr.refused}</p>}
          {preview.error !== undefined && refused === null && (
            <LoadError error={preview.error} onRetry={preview.reload} />
          )}
          {preview.data === null && <p className="error-text">{t.qr.unreadable}</p>}
          {preview.data && <QrPreview shape={preview.data} label={t.qr.imageLabel(link.short_url)} />}
        </div>
        <div className="form qr-form">
          <div className="field-row">
            <HexColorField
              label={t.qr.foreground}
              pickerLabel={t.qr.pickForeground}
              value={design.fg}
              picked={hexColour(design.fg)}
              onChange={(fg) => edit({ fg })}
              hint={contrastHint}
              errors={errorsOf('fg')}
            />
            <HexColorField
              label={t.qr.background}
              pickerLabel={t.qr.pickBackground}
              value={design.bg}
              picked={hexColour(design.bg)}
              onChange={(bg) => edit({ bg })}
              errors={errorsOf('bg')}
            />
          </div>
          <div className="field-row">
            <Field label={t.qr.margin} errors={errorsOf('margin')}>
              {(control) => (
                <NumberInput
                  {...control}
                  min={0}
                  max={16}
                  step={1}
                  value={design.margin}
                  onChange={(event) => edit({ margin: event.target.value })}
                />
              )}
            </Field>
            <Field
              label={t.qr.ecc}
              hint={design.logo ? t.qr.eccWithLogo : undefined}
              errors={errorsOf('ecc')}
            >
              {(control) => (
                <select
                  {...control}
                  value={design.ecc}
                  onChange={(event) => edit({ ecc: event.target.value as QrErrorCorrection })}
                >
                  {levels.map((level) => (
                    <option key={level} value={level}>
                      {t.qr.eccLevels[level]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Choices
            legend={t.qr.modules}
            options={QrStyleValues}
            value={design.style}
            onChange={(style) => edit({ style })}
            label={(style) => t.qr.styles[style]}
          />
          <QrLogoFields
            link={link}
            drawn={design.logo}
            onDrawn={(drawn) => change(withLogo(design, drawn))}
            errors={errorsOf('logo')}
            onChanged={(uploaded) => {
              setLogoChanges((count) => count + 1);
              if (uploaded && !design.logo) change(withLogo(design, true));
            }}
          />
          <Field label={t.qr.size}>
            {(control) => (
              <select {...control} value={size} onChange={(event) => setSize(Number(event.target.value))}>
                {DOWNLOAD_SIZES.map((option) => (
                  <option key={option} value={option}>
                    {option} × {option}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </div>
      <FormAlert message={failure?.message ?? null} errors={otherErrors} />
      <div className="dialog-actions">
        <button type="button" onClick={() => void download('svg')}>
          {t.qr.downloadSvg}
        </button>
        <button type="button" onClick={() => void download('png')}>
          {t.qr.downloadPng}
        </button>
        <button type="button" className="primary" onClick={onClose}>
          {t.common.close}
        </button>
      </div>
    </Dialog>
  );
}
