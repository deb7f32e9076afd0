import { FormIntIn, FormString, Nullable, Optional, Required } from '../../common/validation';
import { SPACE_COLORS } from '../space.entity';

export class CreateSpaceDto {
  /** Unique within the account, regardless of case. */
  @Required()
  @FormString({ max: 255 })
  name!: string;

  /** 1 to 6; 1 when absent. */
  @Nullable()
  @FormIntIn(SPACE_COLORS)
  color?: number | null;
}

/** PUT and PATCH alike: what is absent stays as it is. */
export class UpdateSpaceDto {
  @Optional()
  @Required()
  @FormString({ max: 255 })
  name?: string;

  @Optional()
  @Required()
  @FormIntIn(SPACE_COLORS)
  color?: number;
}
