import { ApiProperty } from '@nestjs/swagger';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import type { Domain } from './domain.entity';

/** The short form a link shows of its domain. */
export class DomainSummary {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({
    type: 'string',
    example: 'sho.rt',
    description: 'The hostname, with a port where it has one.',
  })
  name!: string;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    example: 'https://sho.rt',
    description: 'The base of short URLs.',
  })
  url!: string;
}

/** A domain, as the API answers it. */
export class DomainResponse extends DomainSummary {
  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: 'Where a visit to the domain’s root goes.',
  })
  index_page!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: 'Where a visit to an unknown alias goes.',
  })
  not_found_page!: string | null;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The JSON document served at `/.well-known/apple-app-site-association` of the domain, as text.',
  })
  apple_app_site_association!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The JSON document served at `/.well-known/assetlinks.json` of the domain, as text.',
  })
  assetlinks!: string | null;
}

/** A domain's base URL: the scheme of APP_URL (https in production), then the host. */
export function domainUrl(domain: Domain, scheme: string): string {
  return `${scheme}//${domain.name}`;
}

/** A link's short URL on a domain. */
export function shortUrl(domain: Domain, scheme: string, alias: string): string {
  return `${domainUrl(domain, scheme)}/${alias}`;
}

export function toDomainResponse(domain: Domain, scheme: string): DomainResponse {
  return {
    id: domain.id,
    name: domain.name,
    url: domainUrl(domain, scheme),
    index_page: domain.indexPage,
    not_found_page: domain.notFoundPage,
    created_at: isoDate(domain.createdAt),
    updated_at: isoDate(domain.updatedAt),
    apple_app_site_association: domain.appleAppSiteAssociation,
    assetlinks: domain.assetlinks,
  };
}

export function toDomainSummary(domain: Domain, scheme: string): DomainSummary {
  return { id: domain.id, name: domain.name, url: domainUrl(domain, scheme) };
}
