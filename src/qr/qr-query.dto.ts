import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { Transform } from 'class-transformer';
import { FormEnum, FormInt, Nullable } from '../common/validation';

export const QR_FORMATS = ['svg', 'png'] as const;
export type QrFormat = (typeof QR_FORMATS)[number];
/** The sizes the API draws, in pixels. */
export const QR_MIN_SIZE = 64;
export const QR_MAX_SIZE = 2048;

/** A colour as six hex digits, with or without `#`. */
function HexColor(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ type: 'string', pattern: '^#?[0-9a-fA-F]{6}$', example: '1a2b3c', required: false })(
      target,
      key,
    );
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && value.trim() !== '' ? value.trim().replace(/^#/, '').toLowerCase() : null,
    )(target, key);
    Matches(/^[0-9a-f]{6}$/, {
      message: (args) => `The ${args.property} field must be a colour of six hexadecimal digits, as 1a2b3c.`,
    })(target, key);
  };
}

/** How a QR code is drawn: every parameter optional and bounded. */
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

  /** The dark modules' colour; black when absent. */
  @Nullable()
  @HexColor()
  color?: string | null;

  /** The light modules' and the quiet zone's colour; white when absent. */
  @Nullable()
  @HexColor()
  background?: string | null;

  @Nullable()
  @FormInt({
    min: 0,
    max: 16,
    description: "The quiet zone around the code, in modules, 0 to 16; 4 (the standard's) when absent.",
  })
  margin?: number | null;
}
