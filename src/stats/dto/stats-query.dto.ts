import { CLICK_DIMENSIONS, type ClickDimension } from '../../clicks/click-dimensions';
import { ListQueryDto } from '../../common/list-query.dto';
import { FormDay, FormEnum, FormIdList, FormString, Nullable } from '../../common/validation';
import { DomainFilter, SpaceFilter, TagFilter } from '../../links/dto/link-filters';

/**
 * The dimensions stats count clicks by: phpShort's (with `continent`, which phpShort lacks), then `target`, the
 * destination each click was sent to (contract §13).
 */
export const STATS_DIMENSIONS = CLICK_DIMENSIONS;
export type StatsDimension = ClickDimension;

/** `click` is the clicks over time (`clicks` too, as this service named it first); the others, a dimension. */
export const STATS_NAMES = ['click', 'clicks', ...STATS_DIMENSIONS] as const;
export type StatsName = (typeof STATS_NAMES)[number];

/** Whether a name asks for the clicks over time rather than a dimension. */
export function isClicksOverTime(name: StatsName): name is 'click' | 'clicks' {
  return name === 'click' || name === 'clicks';
}

export const STATS_SEARCH_BY = ['value'] as const;
export const STATS_SORT_BY = ['count', 'value'] as const;
export type StatsSortBy = (typeof STATS_SORT_BY)[number];

/** A list's `sort`, `per_page` and `page` over the clicks of some days: a link's clicks, and its stats. */
export class PeriodListQueryDto extends ListQueryDto {
  @Nullable()
  @FormDay('First day, `Y-m-d` (UTC); the day the link was made when absent.')
  from?: Date | null;

  @Nullable()
  @FormDay('Last day, included; today when absent.')
  to?: Date | null;
}

/**
 * phpShort's stats parameters: a list's `sort`, `per_page` and `page`, which a dimension's answer is paged by and
 * clicks over time, one whole list, does not read; and what the values are searched and sorted by.
 */
export class StatsQueryDto extends PeriodListQueryDto {
  @Nullable()
  @FormEnum(STATS_NAMES, 'StatsName', {
    description: '`click` (clicks over time; `clicks` too) or a dimension; `click` when absent.',
  })
  name?: StatsName | null;

  @Nullable()
  @FormString({ max: 255, description: 'Only the values that contain this, in any case.' })
  search?: string | null;

  @Nullable()
  @FormEnum(STATS_SEARCH_BY, 'StatsSearchBy')
  search_by?: (typeof STATS_SEARCH_BY)[number] | null;

  @Nullable()
  @FormEnum(STATS_SORT_BY, 'StatsSortBy', {
    description: '`count` by default, with `sort` `desc`; `value` for clicks over time, with `sort` `asc`.',
  })
  sort_by?: StatsSortBy | null;
}

/** The days of an export of clicks, as the stats take them; a side left out is not bounded. */
export class ClickExportQueryDto {
  @Nullable()
  @FormDay('First day, `Y-m-d` (UTC); from the first click held when absent.')
  from?: Date | null;

  @Nullable()
  @FormDay('Last day, included; up to the last click when absent.')
  to?: Date | null;
}

/** The links whose stored rollups are read: up to 100. */
export class RollupsQueryDto {
  @Nullable()
  @FormIdList({ max: 100, description: 'The links, up to 100: `link_ids=1&link_ids=2`.' })
  link_ids?: number[] | null;
}

/** The most links a workspace's stats compare at once (contract §14). */
export const MAX_COMPARED_LINKS = 5;

/** A workspace's stats (contract §14): a link's parameters, and which of the workspace's links are counted. */
export class WorkspaceStatsQueryDto extends StatsQueryDto {
  @SpaceFilter()
  space_id?: number | null;

  @DomainFilter()
  domain_id?: number | null;

  @TagFilter()
  tag?: string[];

  @Nullable()
  @FormIdList({
    max: MAX_COMPARED_LINKS,
    description: 'Some links alone, up to 5, counted together (`link_ids[]=1&link_ids[]=2`).',
  })
  link_ids?: number[] | null;
}
