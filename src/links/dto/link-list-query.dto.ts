import { ListQueryDto } from '../../common/list-query.dto';
import {
  FormBool,
  FormEnum,
  FormInt,
  FormIntIn,
  FormNameList,
  FormString,
  MAX_ID,
  Nullable,
  Optional,
} from '../../common/validation';
import { MAX_LINK_TAGS, MAX_TAG_NAME } from '../../tags/tag.entity';
import { CHECK_STATUS_NAMES } from '../health/link-check.entity';
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

  @Nullable()
  @FormInt({ min: 0, max: MAX_ID, description: "A space's links; 0 for links without a space." })
  space_id?: number | null;

  @Nullable()
  @FormInt({ min: 1, max: MAX_ID })
  domain_id?: number | null;

  @Nullable()
  @FormInt({ min: 1, max: MAX_ID })
  pixel_id?: number | null;

  @Optional()
  @FormNameList({
    maxItems: MAX_LINK_TAGS,
    max: MAX_TAG_NAME,
    description: 'Links holding any of these tags, by name regardless of case (`tag=news&tag=tech`).',
  })
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
