import { SearchableListQueryDto } from '../../common/list-query.dto';

export const TAG_SEARCH_BY = ['name'] as const;
export const TAG_SORT_BY = ['id', 'name'] as const;

export class TagListQueryDto extends SearchableListQueryDto('Tag', TAG_SEARCH_BY, TAG_SORT_BY) {}
