import { ListQueryDto } from '../../common/list-query.dto';
import { FormEnum, FormString, Nullable } from '../../common/validation';
import { PIXEL_TYPES, type PixelType } from '../pixel-types';

export const PIXEL_SEARCH_BY = ['name', 'value'] as const;
export const PIXEL_SORT_BY = ['id', 'name'] as const;

export class PixelListQueryDto extends ListQueryDto {
  @Nullable()
  @FormString({ max: 255 })
  search?: string | null;

  @Nullable()
  @FormEnum(PIXEL_SEARCH_BY)
  search_by?: (typeof PIXEL_SEARCH_BY)[number] | null;

  /** Only pixels of this type. */
  @Nullable()
  @FormEnum(PIXEL_TYPES)
  type?: PixelType | null;

  @Nullable()
  @FormEnum(PIXEL_SORT_BY)
  sort_by?: (typeof PIXEL_SORT_BY)[number] | null;
}
