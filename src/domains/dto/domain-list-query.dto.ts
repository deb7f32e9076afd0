import { ListQueryDto } from '../../common/list-query.dto';
import { FormEnum, FormString, Nullable } from '../../common/validation';

export const DOMAIN_SEARCH_BY = ['name'] as const;
export const DOMAIN_SORT_BY = ['id', 'name'] as const;

export class DomainListQueryDto extends ListQueryDto {
  @Nullable()
  @FormString({ max: 255 })
  search?: string | null;

  @Nullable()
  @FormEnum(DOMAIN_SEARCH_BY)
  search_by?: (typeof DOMAIN_SEARCH_BY)[number] | null;

  @Nullable()
  @FormEnum(DOMAIN_SORT_BY)
  sort_by?: (typeof DOMAIN_SORT_BY)[number] | null;
}
