import { SearchableListQueryDto } from '../../common/list-query.dto';

export const UTM_TEMPLATE_SEARCH_BY = ['name'] as const;
export const UTM_TEMPLATE_SORT_BY = ['id', 'name'] as const;

export class UtmTemplateListQueryDto extends SearchableListQueryDto(
  'UtmTemplate',
  UTM_TEMPLATE_SEARCH_BY,
  UTM_TEMPLATE_SORT_BY,
) {}
