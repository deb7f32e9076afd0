/**
 * What a click records of its visitor, phpShort's stats names (with `continent`, which phpShort lacks), in the
 * order a profile numbers them: `click_days` and `click_values` name each by its place from 1.
 */
export const VISITOR_DIMENSIONS = [
  'referrer',
  'country',
  'city',
  'continent',
  'browser',
  'operating_system',
  'device',
  'language',
] as const;
export type VisitorDimension = (typeof VISITOR_DIMENSIONS)[number];

/** Every dimension clicks are counted by: the visitor's, then the destination the click was sent to (9). */
export const CLICK_DIMENSIONS = [...VISITOR_DIMENSIONS, 'target'] as const;
export type ClickDimension = (typeof CLICK_DIMENSIONS)[number];

/** Each dimension's number in `click_days` and `click_values`: its place among {@link CLICK_DIMENSIONS}, from 1. */
export const DIMENSION_CODES = Object.fromEntries(
  CLICK_DIMENSIONS.map((name, index) => [name, index + 1]),
) as Record<ClickDimension, number>;
