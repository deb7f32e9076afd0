import { ListQueryDto } from '../../common/list-query.dto';
import { FormEnum, FormString, Nullable } from '../../common/validation';

export const SPACE_SEARCH_BY = ['name'] as const;
export const SPACE_SORT_BY = ['id', 'name'] as const;

export class SpaceListQueryDto extends ListQueryDto {
  /** Case-insensitive substring of the `search_by` column. */
  @Nullable()
  @FormString({ max: 255 })
  search?: string | null;

  @Nullable()
  @FormEnum(SPACE_SEARCH_BY)
  search_by?: (typeof SPACE_SEARCH_BY)[number] | null;

  /** `id` orders by creation. */
  @Nullable()
  @FormEnum(SPACE_SORT_BY)
  sort_by?: (typeof SPACE_SORT_BY)[number] | null;
}
