/** The characters an alias is made of: ASCII letters, digits, `-` and `_`. */
const ALIAS_CHARACTERS = '[A-Za-z0-9_-]';

/** The longest alias. */
export const ALIAS_MAX_LENGTH = 255;

/** An alias's characters, as the API documents and checks them (its length is checked apart). */
export const ALIAS_PATTERN = new RegExp(`^${ALIAS_CHARACTERS}+$`);

/** `/{alias}` and nothing else: the path of a visit, its alias captured. */
export const ALIAS_PATH = new RegExp(`^/(${ALIAS_CHARACTERS}{1,${ALIAS_MAX_LENGTH}})$`);

/** Whether a path segment can be an alias at all: any other names no link. */
export function isAlias(value: string): boolean {
  return value.length <= ALIAS_MAX_LENGTH && ALIAS_PATTERN.test(value);
}
