import { Transform } from 'class-transformer';
import { IsString, ValidateBy } from 'class-validator';
import { FormUrl, Nullable, Optional, Required } from '../../common/validation';
import { canonicalHost, withoutScheme } from '../hostname';

export class CreateDomainDto {
  /** A hostname such as `sho.rt`, optionally with a port (`https://sho.rt/` is read as `sho.rt`); unique across the service. */
  @Required()
  @Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const name = withoutScheme(value);
    return name === '' ? null : name;
  })
  // Decorators apply bottom-up: IsString, last here, is checked first, so a number reads "must be a string".
  @ValidateBy(
    {
      name: 'hostname',
      validator: { validate: (value) => typeof value === 'string' && canonicalHost(value) !== null },
    },
    { message: 'The name field must be a valid hostname.' },
  )
  @IsString({ message: 'The name field must be a string.' })
  name!: string;

  /** Where a visit to the domain's root goes. */
  @Nullable()
  @FormUrl()
  index_page?: string | null;

  /** Where a visit to an unknown alias goes. */
  @Nullable()
  @FormUrl()
  not_found_page?: string | null;
}

/** Only the two pages change; an empty value clears one. */
export class UpdateDomainDto {
  @Optional()
  @Nullable()
  @FormUrl()
  index_page?: string | null;

  @Optional()
  @Nullable()
  @FormUrl()
  not_found_page?: string | null;
}
