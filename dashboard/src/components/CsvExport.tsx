import { useState } from 'react';
import { describeError } from '../api/describe';
import { saveBlob } from '../download';
import { useT } from '../i18n/I18nProvider';

/**
 * A list's CSV export, with the filters in force: the button of the page's header, and the failure said below its
 * title. The file is fetched (it needs the session header) and saved from a blob.
 */
export function useCsvExport(label: string, filename: string, fetchCsv: () => Promise<Blob>) {
  const t = useT();
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setError(null);
    try {
      saveBlob(await fetchCsv(), filename);
    } catch (failure) {
      setError(describeError(t, failure));
    }
  };

  return {
    /** Exports without the button, for another control that offers it (a selection's bar). */
    run: () => void run(),
    button: (
      <button type="button" onClick={() => void run()}>
        {label}
      </button>
    ),
    notice: error !== null && (
      <p role="alert" className="error-text">
        {error}
      </p>
    ),
  };
}
