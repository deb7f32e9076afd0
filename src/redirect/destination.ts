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

/**
 * The destination with the visitor's own query parameters added to its own: the destination's parameters come
 * first, and a parameter both have takes the visitor's value (in the destination's place). Each side's
 * parameters keep the text they were written with (a signed destination URL stays valid).
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
  const names = new Set(visitor.map((parameter) => parameter.name));
  const placed = new Set<string>();
  const merged: string[] = [];
  const place = (name: string) => {
    placed.add(name);
    for (const parameter of visitor) if (parameter.name === name) merged.push(parameter.text);
  };
  for (const { name, text } of parameters(url.search.slice(1))) {
    if (!names.has(name)) merged.push(text);
    else if (!placed.has(name)) place(name);
  }
  for (const { name } of visitor) if (!placed.has(name)) place(name);
  // The URL parser percent-encodes what a URL may not hold (spaces, quotes, non-ASCII, control characters).
  url.search = merged.join('&');
  return url.href;
}

/**
 * A URL as a Location header must carry it: in its WHATWG form, ASCII only, so that no browser reads it against
 * the short domain (`https:a.example`, from before URLs were stored that way) and non-ASCII hosts go out in
 * punycode. An origin written without its root slash keeps that form; what is not a URL is percent-encoded.
 */
export function locationUrl(url: string): string {
  try {
    const href = new URL(url).href;
    return href === `${url}/` ? url : href;
  } catch {
    return encodeURI(url);
  }
}
