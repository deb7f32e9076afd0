import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger, integerEnum } from '../common/openapi';
import { SPACE_COLORS } from './space.entity';
import type { Space } from './space.entity';

/** A space, as the API answers it. */
export class SpaceResponse {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Marketing' })
  name!: string;

  @ApiProperty(integerEnum(SPACE_COLORS, 'SpaceColor'))
  color!: number;

  @ApiInteger({ minimum: 0, description: 'How many links the space holds.' })
  links_count!: number;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;
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
