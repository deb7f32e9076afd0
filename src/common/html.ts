/** Markup built by this service, inserted as it is; everything else put in a page is text and escaped. */
export class Html {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (character) => HTML_ESCAPES[character]);
}

export type HtmlValue = Html | string | number | null | undefined | false | readonly HtmlValue[];

function piece(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(piece).join('');
  return escapeHtml(String(value));
}

/**
 * A tagged template for markup: every interpolated value is escaped unless it is {@link Html}, arrays are joined,
 * and null, undefined and false leave nothing.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let markup = strings[0];
  for (let index = 0; index < values.length; index += 1) {
    markup += piece(values[index]) + strings[index + 1];
  }
  return new Html(markup);
}

/** Markup from a trusted source, such as the pixels a link loads, built and escaped by their own module. */
export function trusted(markup: string): Html {
  return new Html(markup);
}
