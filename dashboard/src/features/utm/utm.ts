import type { UtmTemplate } from '../../api/types';

/** The UTM parameters a link and a template hold, in the order the service adds them. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export type UtmValues = Record<UtmField, string>;

/** The longest value of each, as the API takes it. */
export const MAX_UTM_VALUE = 255;

/** The parameters of a template or a link as a form's text values: none set (or no template) is empty. */
export function utmValuesOf(from: Partial<Pick<UtmTemplate, UtmField>> | null): UtmValues {
  return Object.fromEntries(UTM_FIELDS.map((name) => [name, from?.[name] ?? ''])) as UtmValues;
}

/** A form's parameters as the API takes them: each trimmed, null where empty. */
export function utmBody(values: UtmValues): Record<UtmField, string | null> {
  return Object.fromEntries(
    UTM_FIELDS.map((name) => [name, values[name].trim() === '' ? null : values[name].trim()]),
  ) as Record<UtmField, string | null>;
}

/** A query parameter's name as written (`utm_source=x` → `utm_source`), decoded as a form would. */
function nameOf(parameter: string): string {
  const name = (parameter.split('=')[0] ?? '').replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * Where a visit goes: `url` with the parameters merged into its query as the service merges them at the redirect.
 * The destination's parameters keep their place and their text; one the link also sets takes the link's value in
 * the first one's place (the others of that name go); those the destination lacks follow, in the order above.
 * Null when `url` is no absolute URL.
 */
export function withUtm(url: string, values: Partial<Record<UtmField, string | null>>): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const own = new Map<string, string>();
  for (const name of UTM_FIELDS) {
    const value = values[name]?.trim() ?? '';
    if (value !== '') own.set(name, `${name}=${encodeURIComponent(value)}`);
  }
  if (own.size === 0) return parsed.href;
  const merged: string[] = [];
  const placed = new Set<string>();
  for (const parameter of parsed.search.slice(1).split('&')) {
    if (parameter === '') continue;
    const name = nameOf(parameter);
    const replacement = own.get(name);
    if (replacement === undefined) merged.push(parameter);
    else if (!placed.has(name)) {
      placed.add(name);
      merged.push(replacement);
    }
  }
  for (const [name, parameter] of own) if (!placed.has(name)) merged.push(parameter);
  parsed.search = merged.join('&');
  return parsed.href;
}
