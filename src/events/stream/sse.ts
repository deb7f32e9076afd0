/**
 * The text of server-sent events (the HTML standard's `text/event-stream`): each frame ends with a blank line, and
 * a field's value never holds a line break, so a value with one is split over several `data:` lines.
 */

/** An event: its id (what `Last-Event-ID` names on a reconnection), its type and its JSON. */
export function eventFrame(id: string, type: string, data: string): string {
  const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`);
  return `id: ${id}\nevent: ${type}\n${lines.join('')}\n`;
}

/** A comment: ignored by clients, it keeps proxies and load balancers from taking the connection for idle. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/** How long a client waits before it reconnects after losing the stream. */
export function retryFrame(ms: number): string {
  return `retry: ${Math.round(ms)}\n\n`;
}
