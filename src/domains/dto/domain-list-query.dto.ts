import { SearchableListQueryDto } from '../../common/list-query.dto';

export const DOMAIN_SEARCH_BY = ['name'] as const;
export const DOMAIN_SORT_BY = ['id', 'name'] as const;

export class DomainListQueryDto extends SearchableListQueryDto('Domain', DOMAIN_SEARCH_BY, DOMAIN_SORT_BY) {}
