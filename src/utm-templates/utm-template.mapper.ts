import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import type { UtmTemplate } from './utm-template.entity';

const UTM_DOC = 'The value a link built from the template gets; null when the template sets none.';

/** A UTM template, as the API answers it. */
export class UtmTemplateResponse {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Newsletter' })
  name!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'newsletter', description: UTM_DOC })
  utm_source!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'email', description: UTM_DOC })
  utm_medium!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'spring-sale', description: UTM_DOC })
  utm_campaign!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: UTM_DOC })
  utm_term!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: UTM_DOC })
  utm_content!: string | null;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;
}

/** The response shape of a UTM template, in the contract's field order. */
export function toUtmTemplateResponse(template: UtmTemplate): UtmTemplateResponse {
  return {
    id: template.id,
    name: template.name,
    utm_source: template.utmSource,
    utm_medium: template.utmMedium,
    utm_campaign: template.utmCampaign,
    utm_term: template.utmTerm,
    utm_content: template.utmContent,
    created_at: isoDate(template.createdAt),
    updated_at: isoDate(template.updatedAt),
  };
}
