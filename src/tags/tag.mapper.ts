import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger, integerEnum } from '../common/openapi';
import { TAG_COLORS, type Tag } from './tag.entity';

/** A tag, as the API answers it. */
export class TagResponse {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Spring sale' })
  name!: string;

  @ApiProperty(integerEnum(TAG_COLORS, 'TagColor'))
  color!: number;

  @ApiInteger({ minimum: 0, description: "How many links hold the tag (within a restricted key's spaces)." })
  links_count!: number;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;
}

/** The response shape of a tag, in the contract's field order. */
export function toTagResponse(tag: Tag): TagResponse {
  return {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    links_count: tag.linksCount ?? 0,
    created_at: isoDate(tag.createdAt),
    updated_at: isoDate(tag.updatedAt),
  };
}
