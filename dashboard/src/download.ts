/**
 * Saves `blob` as a file the browser downloads, named `filename`. Downloads are fetched rather than linked to,
 * since every API request needs the session header, which a plain link cannot send.
 */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Some browsers read the blob after click() returns: revoking it at once could cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
