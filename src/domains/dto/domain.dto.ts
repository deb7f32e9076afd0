import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, ValidateBy } from 'class-validator';
import { FormJsonDocument, FormUrl, Nullable, Optional, Required } from '../../common/validation';
import { canonicalHost, withoutScheme } from '../hostname';

/** A hostname such as `sho.rt`, optionally with a port (`https://sho.rt/` is read as `sho.rt`). */
function Hostname(): PropertyDecorator {
  return applyDecorators(
    // Decorators apply bottom-up: IsString, last here, is checked first, so a number reads "must be a string".
    IsString({ message: 'The name field must be a string.' }),
    ValidateBy(
      {
        name: 'hostname',
        validator: { validate: (value) => typeof value === 'string' && canonicalHost(value) !== null },
      },
      { message: 'The name field must be a valid hostname.' },
    ),
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      const name = withoutScheme(value);
      return name === '' ? null : name;
    }),
    ApiProperty({
      type: 'string',
      example: 'sho.rt',
      description:
        'A hostname, optionally with a port (`https://sho.rt/` is read as `sho.rt`); unique across the service.',
    }),
  );
}

/** The most an app file may hold: Apple's own limit for `apple-app-site-association`. */
export const MAX_APP_FILE_BYTES = 64 * 1024;

/** An app file of the domain (`apple-app-site-association`, `assetlinks.json`), served at `served`. */
function AppFile(served: string): PropertyDecorator {
  return FormJsonDocument({
    maxBytes: MAX_APP_FILE_BYTES,
    size: '64 KB',
    description:
      `The JSON document served at \`${served}\` of the domain: as a string that holds it, or, in a JSON body, ` +
      'the document itself; at most 64 KB. Empty or null: none (a 404 there).',
  });
}

export class CreateDomainDto {
  @Required()
  @Hostname()
  name!: string;

  @Nullable()
  @FormUrl({ description: "Where a visit to the domain's root goes." })
  index_page?: string | null;

  @Nullable()
  @FormUrl({ description: 'Where a visit to an unknown alias goes.' })
  not_found_page?: string | null;

  @AppFile('/.well-known/apple-app-site-association')
  apple_app_site_association?: string | null;

  @AppFile('/.well-known/assetlinks.json')
  assetlinks?: string | null;
}

/** Only the two pages and the two app files change; an empty value clears one. */
export class UpdateDomainDto {
  @Optional()
  @Nullable()
  @FormUrl()
  index_page?: string | null;

  @Optional()
  @Nullable()
  @FormUrl()
  not_found_page?: string | null;

  @Optional()
  @AppFile('/.well-known/apple-app-site-association')
  apple_app_site_association?: string | null;

  @Optional()
  @AppFile('/.well-known/assetlinks.json')
  assetlinks?: string | null;
}

/** The document's example bodies. */
export const DOMAIN_EXAMPLES = {
  create: {
    name: 'sho.rt',
    index_page: 'https://example.com/',
    not_found_page: 'https://example.com/not-found',
  },
  update: { index_page: 'https://example.com/', not_found_page: 'https://example.com/not-found' },
};
