import { FormEnum, FormString, OptionalNotNull, Required } from '../../common/validation';
import { PIXEL_TYPES, type PixelType } from '../pixel-types';

export class CreatePixelDto {
  @Required()
  @FormString({ max: 255, description: 'Unique within the account, regardless of case.' })
  name!: string;

  @Required()
  @FormEnum(PIXEL_TYPES, 'PixelType', { example: 'google-tag-manager' })
  type!: PixelType;

  @Required()
  @FormString({
    max: 255,
    description: "The vendor's tracking id; its form depends on `type`.",
    example: 'GTM-ABC123',
  })
  value!: string;
}

/** What is absent stays; a new `type` needs a `value` of its form. */
export class UpdatePixelDto {
  @OptionalNotNull()
  @FormString({ max: 255 })
  name?: string;

  @OptionalNotNull()
  @FormEnum(PIXEL_TYPES, 'PixelType')
  type?: PixelType;

  @OptionalNotNull()
  @FormString({ max: 255 })
  value?: string;
}

/** The document's example bodies. */
export const PIXEL_EXAMPLES = {
  create: { name: 'Ads', type: 'google-tag-manager', value: 'GTM-ABC123' },
  update: { name: 'Ads' },
};
