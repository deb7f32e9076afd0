import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';

/**
 * What separates the values of a parameter given more than once (`tag=news&tag=tech`) in the one string a list
 * keeps of it: U+0000, which no value the API takes may hold.
 */
const SEPARATOR = '\u0000';

/** A repeated parameter's values as the one string a list keeps of it; none is the empty string. */
export function joinValues(values: readonly string[]): string {
  return values.join(SEPARATOR);
}

/** The values of a repeated parameter from the string a list keeps of it. */
export function splitValues(value: string): string[] {
  return value === '' ? [] : value.split(SEPARATOR);
}

/**
 * A list's search, filters, order and page, kept in the address's query string so that Back, a reload and a
 * shared address show the same page. Values equal to their default are left out of the address. A parameter the
 * address gives more than once is read whole (see {@link splitValues}) and written back as given.
 */
export function useListParams<K extends string>(
  defaults: Readonly<Record<K, string>>,
): [Readonly<Record<K, string>>, (changes: Partial<Record<K, string>>) => void] {
  const [params, setParams] = useSearchParams();

  const values = useMemo(() => {
    const result: Record<K, string> = { ...defaults };
    for (const name of Object.keys(defaults) as K[]) {
      const given = params.getAll(name);
      if (given.length > 0) result[name] = joinValues(given);
    }
    return result;
  }, [params, defaults]);

  const update = useCallback(
    (changes: Partial<Record<K, string>>) => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [name, value] of Object.entries(changes) as [K, string | undefined][]) {
            if (value === undefined || value === defaults[name]) next.delete(name);
            else {
              const [first = '', ...more] = value.split(SEPARATOR);
              next.set(name, first);
              for (const one of more) next.append(name, one);
            }
          }
          // Any other change than the page starts again from the first page.
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setParams, defaults],
  );

  return [values, update];
}

/** `value` when it is one of `allowed`, else `fallback`: an address edited by hand never becomes a 422. */
export function oneOf<T extends string | number>(value: string, allowed: readonly T[], fallback: T): T {
  return allowed.find((candidate) => String(candidate) === value) ?? fallback;
}

/** A positive whole number from the address, or undefined. */
export function positiveInt(value: string): number | undefined {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 && number <= 2147483647 ? number : undefined;
}
