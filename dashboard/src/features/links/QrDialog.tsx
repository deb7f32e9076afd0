import { useState } from 'react';
import { api, call } from '../../api/client';
import { saveBlob } from '../../download';
import { describeError } from '../../api/describe';
import type { Link } from '../../api/types';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { LoadError, Loading } from '../../components/LoadState';
import { useLoad } from '../../hooks/useLoad';
import { useT } from '../../i18n/I18nProvider';

interface QrShape {
  viewBox: string;
  paths: { d: string; fill: string | undefined; stroke: string | undefined }[];
}

/**
 * The drawing of the API's QR SVG, read as data: only path outlines and their colours are taken, and React draws
 * them. No markup from an answer is put into the page, and no blob: or data: image is needed (a strict CSP refuses
 * both by default).
 */
export function parseQrSvg(text: string): QrShape | null {
  const document = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = document.documentElement;
  if (svg.nodeName !== 'svg') return null;
  const paths = [...svg.querySelectorAll('path')].map((path) => ({
    d: path.getAttribute('d') ?? '',
    fill: path.getAttribute('fill') ?? undefined,
    stroke: path.getAttribute('stroke') ?? undefined,
  }));
  const viewBox = svg.getAttribute('viewBox');
  return viewBox === null || paths.length === 0 ? null : { viewBox, paths };
}

const DOWNLOAD_SIZES = [256, 512, 1024, 2048] as const;

export function QrDialog({ link, onClose }: { link: Link; onClose: () => void }) {
  const t = useT();
  const [size, setSize] = useState<number>(1024);
  const [error, setError] = useState<string | null>(null);
  const path = { id: link.id };

  const image = useLoad(`qr:${link.id}`, async (signal) => {
    const text = await call(
      api.GET('/api/v1/links/{id}/qr', {
        params: { path, query: { format: 'svg' } },
        parseAs: 'text',
        signal,
      }),
    );
    return parseQrSvg(String(text));
  });

  const download = async (format: 'svg' | 'png') => {
    setError(null);
    try {
      const blob = await call(
        api.GET('/api/v1/links/{id}/qr', { params: { path, query: { format, size } }, parseAs: 'blob' }),
      );
      saveBlob(blob, `${link.alias}.${format}`);
    } catch (failure) {
      setError(describeError(t, failure));
    }
  };

  return (
    <Dialog title={t.qr.title(link.short_url)} onClose={onClose}>
      {image.loading && <Loading />}
      {image.error !== undefined && <LoadError error={image.error} onRetry={image.reload} />}
      {image.data === null && <p className="error-text">{t.qr.unreadable}</p>}
      {image.data && (
        <svg
          className="qr"
          viewBox={image.data.viewBox}
          role="img"
          aria-label={t.qr.imageLabel(link.short_url)}
          shapeRendering="crispEdges"
        >
          {image.data.paths.map((shape, index) => (
            <path key={index} d={shape.d} fill={shape.fill ?? 'none'} stroke={shape.stroke} />
          ))}
        </svg>
      )}
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
      {error !== null && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
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
