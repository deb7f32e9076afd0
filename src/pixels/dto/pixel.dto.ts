import { FormEnum, FormString, Optional, Required } from '../../common/validation';
import { PIXEL_TYPES, type PixelType } from '../pixel-types';

export class CreatePixelDto {
  @Required()
  @FormString({ max: 255, description: 'Unique within the account, regardless of case.' })
  name!: string;

  @Required()
  @FormEnum(PIXEL_TYPES, 'PixelType')
  type!: PixelType;

  @Required()
  @FormString({ max: 255, description: "The vendor's tracking id; its form depends on `type`." })
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
  @FormEnum(PIXEL_TYPES, 'PixelType')
  type?: PixelType;

  @Optional()
  @Required()
  @FormString({ max: 255 })
  value?: string;
}
