import { FormEnum, FormString, Optional, Required } from '../../common/validation';
import { PIXEL_TYPES, type PixelType } from '../pixel-types';

export class CreatePixelDto {
  /** Unique within the account, regardless of case. */
  @Required()
  @FormString({ max: 255 })
  name!: string;

  @Required()
  @FormEnum(PIXEL_TYPES)
  type!: PixelType;

  /** The vendor's tracking id; its form depends on `type`. */
  @Required()
  @FormString({ max: 255 })
  value!: string;
}

/** What is absent stays; a new `type` needs a `value` of its form. */
export class UpdatePixelDto {
  @Optional()
  @Required()
  @FormString({ max: 255 })
  name?: string;

  @Optional()
  @Required()
  @FormEnum(PIXEL_TYPES)
  type?: PixelType;

  @Optional()
  @Required()
  @FormString({ max: 255 })
  value?: string;
}
