import { FormIntIn, FormString, Nullable, OptionalNotNull, Required } from '../../common/validation';
import { MAX_TAG_NAME, TAG_COLORS } from '../tag.entity';

export class CreateTagDto {
  @Required()
  @FormString({ max: MAX_TAG_NAME, description: 'Unique within the workspace, regardless of case.' })
  name!: string;

  @Nullable()
  @FormIntIn(TAG_COLORS, 'TagColor', { description: '1 to 6, as spaces have them; 1 when absent.' })
  color?: number | null;
}

/** PUT and PATCH alike: what is absent stays as it is. A new name is every link's tag's new name. */
export class UpdateTagDto {
  @OptionalNotNull()
  @FormString({ max: MAX_TAG_NAME })
  name?: string;

  @OptionalNotNull()
  @FormIntIn(TAG_COLORS, 'TagColor')
  color?: number;
}

/** The document's example bodies. */
export const TAG_EXAMPLES = {
  create: { name: 'Spring sale', color: 3 },
  update: { name: 'Summer sale', color: 4 },
};
