import { parse } from 'node:querystring';

/** The parameters of a query string as they are written, each with its decoded name. */
function parameters(query: string): { name: string; text: string }[] {
  return query
    .split('&')
    .filter((text) => text !== '')
    .map((text) => {
      const name = text.split('=')[0].replace(/\+/g, ' ');
      try {
        return { name: decodeURIComponent(name), text };
      } catch {
        return { name, text };
      }
    });
}

/** The most of a visitor's query string a visit carries to the destination: far past any real campaign link. */
export const MAX_VISITOR_QUERY_PARAMETERS = 100;
export const MAX_VISITOR_QUERY_LENGTH = 4096;

/** Whether a visitor's query string is within what a visit carries (longer ones get the 414 page). */
export function visitorQueryFits(query: string): boolean {
  if (query.length > MAX_VISITOR_QUERY_LENGTH) return false;
  let separators = 0;
  for (let index = query.indexOf('&'); index !== -1; index = query.indexOf('&', index + 1)) separators += 1;
  return separators < MAX_VISITOR_QUERY_PARAMETERS;
}

/**
 * The destination with the visitor's own query parameters added to its own: the destination's parameters come
 * first, and a parameter both have takes the visitor's value (in the destination's place). Each side's
 * parameters keep the text they were written with (a signed destination URL stays valid). One pass over each.
 */
export function mergeQuery(destination: string, visitorQuery: string): string {
  const visitor = parameters(visitorQuery.replace(/^\?/, ''));
  if (visitor.length === 0) return destination;
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return destination;
  }
  // The visitor's parameters by name, names in the order they first appear.
  const byName = new Map<string, string[]>();
  for (const { name, text } of visitor) {
    const texts = byName.get(name);
    if (texts === undefined) byName.set(name, [text]);
    else texts.push(text);
  }
  const merged: string[] = [];
  const placed = new Set<string>();
  const place = (name: string, texts: string[]) => {
    placed.add(name);
    for (const text of texts) merged.push(text);
  };
  for (const { name, text } of parameters(url.search.slice(1))) {
    const texts = byName.get(name);
    if (texts === undefined) merged.push(text);
    else if (!placed.has(name)) place(name, texts);
  }
  for (const [name, texts] of byName) if (!placed.has(name)) place(name, texts);
  // The URL parser percent-encodes what a URL may not hold (spaces, quotes, non-ASCII, control characters).
  url.search = merged.join('&');
  return url.href;
}

/** A list parameter in bracket notation, as PHP clients write it: `tag[]`, `tag[0]`. */
const BRACKETED = /^([^[\]]+)\[\d*\]$/;

/**
 * The API's query parser: Node's `querystring` (a repeated name gives an array, nothing nests), with a list also
 * taken in bracket notation (`tag[]=a&tag[]=b`, `tag[0]=a`), as PHP and phpShort's clients send it: a bracketed
 * name is always a list, and both ways of writing one name may be mixed.
 */
export function parseApiQuery(query: string): Record<string, string | string[]> {
  // Without a prototype, as `querystring` answers: a parameter named `__proto__` is a parameter like any other.
  const folded = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of Object.entries(parse(query))) {
    if (value === undefined) continue;
    const key = BRACKETED.exec(name)?.[1] ?? name;
    const before = folded[key];
    folded[key] = before === undefined ? (key === name ? value : [value].flat()) : [before, value].flat();
  }
  return folded;
}
