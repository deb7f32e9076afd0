import type { Tag, TagColor } from '../../api/types';

/** The most tags a link holds, and the longest name, as the API takes them. */
export const MAX_LINK_TAGS = 20;
export const MAX_TAG_NAME = 50;

/** A tag's name as the API compares names: regardless of case, without the spaces around it. */
export function tagKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The colours of the tags known, by their names regardless of case: a link gives its tags by name alone. */
export type TagColors = ReadonlyMap<string, TagColor>;

export function tagColors(tags: readonly Pick<Tag, 'name' | 'color'>[]): TagColors {
  return new Map(tags.map((tag) => [tagKey(tag.name), tag.color]));
}
