const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` with each lone surrogate as U+FFFD: what PostgreSQL stores when the driver sends the string as UTF-8, and
 * so what reading it back gives. JSON.stringify writes lone surrogates as `\ud800` escapes, which PostgreSQL's JSON
 * refuses.
 */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}
