import { SearchableListQueryDto } from '../../common/list-query.dto';

export const SPACE_SEARCH_BY = ['name'] as const;
export const SPACE_SORT_BY = ['id', 'name'] as const;

export class SpaceListQueryDto extends SearchableListQueryDto('Space', SPACE_SEARCH_BY, SPACE_SORT_BY) {}
