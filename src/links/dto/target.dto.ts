import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, ValidateBy, type ValidationArguments } from 'class-validator';
import { namedEnum } from '../../common/openapi';
import { FormInt, FormUrl, Nullable, Required } from '../../common/validation';
import {
  BROWSERS,
  canonicalTargetKey,
  CONTINENTS,
  COUNTRY_NAMES,
  DEVICES,
  isCountryCode,
  isLanguageCode,
  LANGUAGE_CODES,
  OPERATING_SYSTEMS,
  TARGETS_TYPES,
  TargetsType,
} from '../../targeting/allowed-values';
import { MAX_ROTATION_WEIGHT } from '../../targeting/rotation';

/** Set on each target by the link DTO: the `targets_type` of the same request, when it sent one. */
export const TARGETS_TYPE_OF = Symbol('targetsType');

function targetsTypeOf(args: ValidationArguments): TargetsType | undefined {
  const type = (args.object as Record<symbol, unknown>)[TARGETS_TYPE_OF];
  return typeof type === 'string' && (TARGETS_TYPES as readonly string[]).includes(type)
    ? (type as TargetsType)
    : undefined;
}

/** The allowed-values tables, named as the document's enums, one per `targets_type` that has keys. */
export const TARGET_KEY_SCHEMAS = [
  namedEnum('Continent', CONTINENTS, 'Continents: the keys of `targets_type=continents`.'),
  namedEnum(
    'CountryCode',
    Object.keys(COUNTRY_NAMES).filter(isCountryCode).sort(),
    'ISO 3166-1 alpha-2 codes: the keys of `targets_type=countries` (any case is read).',
  ),
  namedEnum(
    'OperatingSystem',
    OPERATING_SYSTEMS,
    'Operating systems: the keys of `targets_type=operating_systems`.',
  ),
  namedEnum('Browser', BROWSERS, 'Browsers: the keys of `targets_type=browsers`.'),
  namedEnum(
    'LanguageCode',
    LANGUAGE_CODES.filter(isLanguageCode),
    'ISO 639-1 codes: the keys of `targets_type=languages` (any case is read).',
  ),
  namedEnum('Device', DEVICES, 'Devices: the keys of `targets_type=devices` (lower case is read too).'),
];

/** One targeting rule: visitors whose `key` matches go to `value`. */
export class TargetDto {
  /**
   * Per targets_type: an ISO 3166-1 alpha-2 country, a continent code, an ISO 639-1 language, or an operating
   * system, browser or device from the allowed lists; no key for rotations.
   */
  @Nullable()
  @ApiProperty({
    type: 'string',
    anyOf: [
      ...TARGET_KEY_SCHEMAS,
      {
        type: 'string',
        pattern: '^[A-Za-z]{2}$',
        description: 'A continent, country or language code in another case: answered in its enum’s case.',
      },
      {
        type: 'string',
        enum: DEVICES.map((device) => device.toLowerCase()),
        description: 'A device in lower case.',
      },
    ],
    description:
      'Per `targets_type`: a `Continent`, a `CountryCode`, an `OperatingSystem`, a `Browser`, a `LanguageCode` ' +
      'or a `Device` (codes in any case, devices in lower case too); none for `rotations`.',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'The key field must be a string.' })
  @ValidateBy(
    {
      name: 'targetKey',
      validator: {
        validate: (value, args) => {
          const type = targetsTypeOf(args!);
          return type === undefined || canonicalTargetKey(type, String(value)) !== null;
        },
      },
    },
    { message: (args) => `The selected key is invalid for ${String(targetsTypeOf(args))}.` },
  )
  key?: string | null;

  @Required()
  @FormUrl({ description: 'Where matching visitors go; for `rotations`, one destination of the round.' })
  value!: string;
  @Nullable()
  @FormInt({
    min: 1,
    max: MAX_ROTATION_WEIGHT,
    description:
      "For `rotations`: this destination's share of the visits against the others' weights (1 by default): of " +
      'every round of visits as long as the weights add up to, it gets exactly its weight, in a fixed order.',
  })
  weight?: number | null;
}
