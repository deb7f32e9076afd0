import { Transform } from 'class-transformer';
import { IsString, ValidateBy, type ValidationArguments } from 'class-validator';
import { FormUrl, Nullable, Required } from '../../common/validation';
import { canonicalTargetKey, TARGETS_TYPES, TargetsType } from '../../targeting/allowed-values';

/** Set on each target by the link DTO: the `targets_type` of the same request, when it sent one. */
export const TARGETS_TYPE_OF = Symbol('targetsType');

function targetsTypeOf(args: ValidationArguments): TargetsType | undefined {
  const type = (args.object as Record<symbol, unknown>)[TARGETS_TYPE_OF];
  return typeof type === 'string' && (TARGETS_TYPES as readonly string[]).includes(type)
    ? (type as TargetsType)
    : undefined;
}

/** One targeting rule: visitors whose `key` matches go to `value`. */
export class TargetDto {
  /**
   * Per targets_type: an ISO 3166-1 alpha-2 country, a continent code, an ISO 639-1 language, or an operating
   * system, browser or device from the allowed lists; no key for rotations.
   */
  @Nullable()
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

  /** Where matching visitors go. */
  @Required()
  @FormUrl()
  value!: string;
}
