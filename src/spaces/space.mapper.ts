import { isoDate } from '../common/dates';
import type { Space } from './space.entity';

export interface SpaceResponse {
  id: number;
  name: string;
  color: number;
  links_count: number;
  created_at: string;
  updated_at: string;
}

/** The response shape of a space, in the contract's field order. */
export function toSpaceResponse(space: Space, linksCount: number): SpaceResponse {
  return {
    id: space.id,
    name: space.name,
    color: space.color,
    links_count: linksCount,
    created_at: isoDate(space.createdAt),
    updated_at: isoDate(space.updatedAt),
  };
}
