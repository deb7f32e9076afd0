import { PickType } from '@nestjs/swagger';
import { ListQueryDto } from '../../common/list-query.dto';
import {
  FormBool,
  FormEnum,
  FormId,
  FormIntIn,
  FormString,
  Nullable,
  Optional,
} from '../../common/validation';
import { CHECK_STATUS_NAMES } from '../health/link-check.entity';
import { DomainFilter, SpaceFilter, TagFilter } from './link-filters';
import { LinkStatus } from '../status/link-status';

export const LINK_SEARCH_BY = ['title', 'alias', 'url'] as const;
export const LINK_SORT_BY = ['id', 'clicks', 'title', 'alias', 'url'] as const;

export class LinkListQueryDto extends ListQueryDto {
  @Nullable()
  @FormString({ max: 255, description: 'Case-insensitive substring of the `search_by` column.' })
  search?: string | null;

  @Nullable()
  @FormEnum(LINK_SEARCH_BY, 'LinkSearchBy')
  search_by?: (typeof LINK_SEARCH_BY)[number] | null;

  /** 0 all, 1 active, 2 expired, 3 disabled. */
  @Nullable()
  @FormIntIn([0, LinkStatus.Active, LinkStatus.Expired, LinkStatus.Disabled], 'LinkStatusFilter', {
    valueNames: ['All', 'Active', 'Expired', 'Disabled'],
  })
  status?: 0 | LinkStatus | null;

  @SpaceFilter()
  space_id?: number | null;

  @DomainFilter()
  domain_id?: number | null;

  @Nullable()
  @FormId()
  pixel_id?: number | null;

  @TagFilter()
  tag?: string[];

  @Optional()
  @FormBool({ description: '1: the archived links alone; 0 or absent: every link but those.' })
  archived?: boolean;

  @Nullable()
  @FormEnum(CHECK_STATUS_NAMES, 'LinkHealthStatus', {
    description: 'The links whose last check found this: `broken` lists the broken links.',
  })
  health?: (typeof CHECK_STATUS_NAMES)[number] | null;

  @Nullable()
  @FormEnum(LINK_SORT_BY, 'LinkSortBy', { description: '`id` orders by creation.' })
  sort_by?: (typeof LINK_SORT_BY)[number] | null;
}

/** The list's filters, which a bulk change also names its links by: each validated as the list validates it. */
export const LINK_FILTER_FIELDS = [
  'search',
  'search_by',
  'status',
  'space_id',
  'domain_id',
  'pixel_id',
  'tag',
  'archived',
  'health',
] as const;

/** The list's filters alone, without its order and pages: what a bulk change's `filter` takes. */
export class LinkFiltersDto extends PickType(LinkListQueryDto, LINK_FILTER_FIELDS) {}

/** A list query, or the filters alone: what finds links. */
export type LinkFilters = Pick<LinkListQueryDto, (typeof LINK_FILTER_FIELDS)[number]>;
