import { applyDecorators } from '@nestjs/common';
import { FormString, Nullable, OptionalNotNull, Required } from '../../common/validation';
import { MAX_UTM_TEMPLATE_NAME, MAX_UTM_VALUE } from '../utm-template.entity';

/** A UTM field of a template: optional, at most 255 characters, trimmed; empty or null clears it. */
function UtmValue(example?: string, description = 'An empty string clears it.'): PropertyDecorator {
  // In the order `@Nullable() @FormString()` written above a field applies them.
  return applyDecorators(FormString({ max: MAX_UTM_VALUE, description, example }), Nullable());
}

/** What a template of nothing is refused as: the first UTM field, as Laravel's `required_without_all` names it. */
const ONE_REQUIRED = 'Required unless another UTM field is set: a template sets one at least.';

/** The five UTM fields a template sets, create and update alike; at least one must be set (a 422 on `utm_source`). */
class UtmValuesDto {
  @UtmValue('newsletter', ONE_REQUIRED)
  utm_source?: string | null;

  @UtmValue('email')
  utm_medium?: string | null;

  @UtmValue('spring-sale')
  utm_campaign?: string | null;

  @UtmValue()
  utm_term?: string | null;

  @UtmValue()
  utm_content?: string | null;
}

/** A new template: a name, and at least one UTM field. */
export class CreateUtmTemplateDto extends UtmValuesDto {
  @Required()
  @FormString({ max: MAX_UTM_TEMPLATE_NAME, description: 'Unique within the account, regardless of case.' })
  name!: string;
}

/** PUT and PATCH alike: what is absent stays as it is; the template must still set one UTM field. */
export class UpdateUtmTemplateDto extends UtmValuesDto {
  @OptionalNotNull()
  @FormString({ max: MAX_UTM_TEMPLATE_NAME })
  name?: string;
}

/** The document's example bodies. */
export const UTM_TEMPLATE_EXAMPLES = {
  create: { name: 'Newsletter', utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring-sale' },
  update: { utm_campaign: 'summer-sale' },
};
