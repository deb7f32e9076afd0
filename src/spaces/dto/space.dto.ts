import { FormIntIn, FormString, Nullable, OptionalNotNull, Required } from '../../common/validation';
import { SPACE_COLORS } from '../space.entity';

export class CreateSpaceDto {
  @Required()
  @FormString({ max: 255, description: 'Unique within the account, regardless of case.' })
  name!: string;

  @Nullable()
  @FormIntIn(SPACE_COLORS, 'SpaceColor', { description: '1 to 6; 1 when absent.' })
  color?: number | null;
}

/** PUT and PATCH alike: what is absent stays as it is. */
export class UpdateSpaceDto {
  @OptionalNotNull()
  @FormString({ max: 255 })
  name?: string;

  @OptionalNotNull()
  @FormIntIn(SPACE_COLORS, 'SpaceColor')
  color?: number;
}

/** The document's example bodies. */
export const SPACE_EXAMPLES = {
  create: { name: 'Marketing', color: 3 },
  update: { name: 'Marketing', color: 3 },
};
