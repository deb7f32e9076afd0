import { SearchableListQueryDto } from '../../common/list-query.dto';
import { FormEnum, Nullable } from '../../common/validation';
import { PIXEL_TYPES, type PixelType } from '../pixel-types';

export const PIXEL_SEARCH_BY = ['name', 'value'] as const;
export const PIXEL_SORT_BY = ['id', 'name'] as const;

export class PixelListQueryDto extends SearchableListQueryDto('Pixel', PIXEL_SEARCH_BY, PIXEL_SORT_BY) {
  @Nullable()
  @FormEnum(PIXEL_TYPES, 'PixelType', { description: 'Only pixels of this type.' })
  type?: PixelType | null;
}
