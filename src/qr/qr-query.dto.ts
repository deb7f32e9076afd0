import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import { Transform } from 'class-transformer';
import { FormBool, FormEnum, FormInt, Nullable, Optional } from '../common/validation';
import { contrastRatio, MIN_QR_CONTRAST } from './contrast';
import { QR_STYLES, type QrStyle } from './modules';

export const QR_FORMATS = ['svg', 'png'] as const;
export type QrFormat = (typeof QR_FORMATS)[number];
/** The error correction levels, from the least (7% of the code may be lost) to the most (30%). */
export const QR_ECC_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type QrEcc = (typeof QR_ECC_LEVELS)[number];
/** The levels a code with a logo may have: the logo takes part of what they can correct. */
export const QR_LOGO_ECC_LEVELS: readonly QrEcc[] = ['Q', 'H'];
/** The refusal of a level that cannot spare what a logo hides. */
export const LOGO_ECC_REFUSAL = 'The ecc field must be Q or H with a logo: the logo hides part of the code.';
/** The sizes the API draws, in pixels. */
export const QR_MIN_SIZE = 64;
export const QR_MAX_SIZE = 2048;
export const QR_DEFAULT_DARK = '000000';
export const QR_DEFAULT_LIGHT = 'ffffff';

const HEX_COLOUR = /^[0-9a-f]{6}$/;

/** What the colour fields hold once read: six lower-case hex digits, null when absent or empty. */
type ColourFields = Pick<QrQueryDto, 'fg' | 'bg' | 'color' | 'background'>;

/** The colours a code is drawn in: `fg` and `bg`, else the older `color` and `background`, else black on white. */
export function qrColours(query: ColourFields): { dark: string; light: string } {
  return {
    dark: query.fg ?? query.color ?? QR_DEFAULT_DARK,
    light: query.bg ?? query.background ?? QR_DEFAULT_LIGHT,
  };
}

function isColour(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && HEX_COLOUR.test(value));
}

/** The pair's contrast, or null while one of the colours given is not a colour (that field is refused instead). */
function contrastOf(query: ColourFields): number | null {
  if (![query.fg, query.bg, query.color, query.background].every(isColour)) return null;
  const { dark, light } = qrColours(query);
  return contrastRatio(dark, light);
}

/**
 * A colour as six hex digits, with or without `#`: documented with `example`, refused in the words of `shownAs`.
 * `checkedWhen` says when it is checked at all (absent, it is not, unless it says so), `contrastWhen` whether this
 * field answers for the pair's contrast.
 */
function HexColor(options: {
  example: string;
  shownAs: string;
  description: string;
  checkedWhen: (query: ColourFields) => boolean;
  contrastWhen?: (query: ColourFields) => boolean;
  deprecated?: boolean;
}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: 'string',
      pattern: '^#?[0-9a-fA-F]{6}$',
      example: options.example,
      description: options.description,
      required: false,
      nullable: true,
      ...(options.deprecated === true ? { deprecated: true } : {}),
    }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && value.trim() !== '' ? value.trim().replace(/^#/, '').toLowerCase() : null,
    ),
    ValidateIf((query: ColourFields) => options.checkedWhen(query)),
    ValidateBy(
      { name: 'hexColour', validator: { validate: isColour } },
      {
        message: (args) =>
          `The ${args.property} field must be a colour of six hexadecimal digits, as ${options.shownAs}.`,
      },
    ),
    ValidateBy(
      {
        name: 'colourContrast',
        validator: {
          validate: (_value, args) => {
            const query = args!.object as ColourFields;
            if (options.contrastWhen?.(query) !== true) return true;
            const contrast = contrastOf(query);
            return contrast === null || contrast >= MIN_QR_CONTRAST;
          },
          defaultMessage: (args) => {
            const contrast = contrastOf(args!.object) ?? 0;
            return (
              `The ${args!.property} field must contrast with the background by at least ${MIN_QR_CONTRAST} to 1 ` +
              `for the code to scan; these colours are ${(Math.floor(contrast * 100) / 100).toFixed(2)} to 1.`
            );
          },
        },
      },
      {},
    ),
  );
}

const given = (value: unknown) => value !== null && value !== undefined;

/** How a QR code is drawn: every parameter optional and bounded; none given, the code of every release before. */
export class QrQueryDto {
  @Nullable()
  @FormEnum(QR_FORMATS, 'QrFormat', { description: '`svg` (the default) or `png`.' })
  format?: QrFormat | null;

  @Nullable()
  @FormInt({
    min: QR_MIN_SIZE,
    max: QR_MAX_SIZE,
    description: "The image's width and height in pixels, 64 to 2048; 256 when absent.",
  })
  size?: number | null;

  // Checked when given, and when only bg was: the pair's contrast is refused on `fg`, whichever of the two is off.
  @HexColor({
    example: '#1a2b3c',
    shownAs: '#1a2b3c',
    description:
      'The dark modules’ colour, `#rrggbb` (`#` sent as `%23`; without it too); black when absent. With `fg` or ' +
      '`bg` given, the pair must be at least 4.5 to 1 in contrast (WCAG’s relative luminance), or the code may not ' +
      'scan: a 422 on `fg` otherwise.',
    checkedWhen: (query) => given(query.fg) || given(query.bg),
    contrastWhen: (query) => given(query.fg) || given(query.bg),
  })
  fg?: string | null;

  @HexColor({
    example: '#fafafa',
    shownAs: '#fafafa',
    description: 'The light modules’ and the quiet zone’s colour, `#rrggbb`; white when absent.',
    checkedWhen: (query) => given(query.bg),
  })
  bg?: string | null;

  // The names of earlier releases, read as they were: without the contrast rule, which came with fg and bg.
  @HexColor({
    example: '1a2b3c',
    shownAs: '1a2b3c',
    description: 'The older name of `fg`, read when `fg` is absent; alone, its contrast is not checked.',
    checkedWhen: (query) => given(query.color),
    deprecated: true,
  })
  color?: string | null;

  @HexColor({
    example: 'fafafa',
    shownAs: '1a2b3c',
    description: 'The older name of `bg`, read when `bg` is absent.',
    checkedWhen: (query) => given(query.background),
    deprecated: true,
  })
  background?: string | null;

  @Nullable()
  @FormInt({
    min: 0,
    max: 16,
    description: "The quiet zone around the code, in modules, 0 to 16; 4 (the standard's) when absent.",
  })
  margin?: number | null;

  @Nullable()
  @FormEnum(QR_ECC_LEVELS, 'QrErrorCorrection', {
    description:
      'Error correction: the share of the code that may be lost and still read, `L` 7%, `M` 15% (the default), ' +
      '`Q` 25%, `H` 30%. A higher level makes a denser code. With `logo=1`, `Q` or `H` (`H` when absent): the ' +
      'logo takes up to half of what they correct.',
  })
  @ValidateBy(
    {
      name: 'logoEcc',
      validator: {
        validate: (value, args) =>
          (args!.object as QrQueryDto).logo !== true || QR_LOGO_ECC_LEVELS.includes(value as QrEcc),
      },
    },
    { message: LOGO_ECC_REFUSAL },
  )
  ecc?: QrEcc | null;

  @Nullable()
  @FormEnum(QR_STYLES, 'QrStyle', {
    description:
      '`square` modules (the default), or `rounded`: corners without a dark neighbour rounded, a lone module a dot.',
  })
  style?: QrStyle | null;

  @Optional()
  @FormBool({
    description:
      'Draws the logo uploaded for the link (`PUT /api/v1/links/{id}/qr-logo`), else the workspace’s ' +
      '(`PUT /api/v1/account/qr-logo`), in the middle of the code; a 422 on `logo` when there is neither, or when ' +
      'a PNG code is asked for with an SVG logo.',
  })
  logo?: boolean;
}
