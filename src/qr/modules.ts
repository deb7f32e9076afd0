/** The modules of a QR code: `size` rows of `size`, row by row, non-zero for a dark module. */
export interface QrModules {
  size: number;
  data: Uint8Array;
  /** Non-zero for the modules that are not data: finders, alignment and timing patterns, format and version. */
  reserved?: Uint8Array;
}

/** How the modules of a code are drawn: square (the standard's), or rounded where a module has no neighbour. */
export const QR_STYLES = ['square', 'rounded'] as const;
export type QrStyle = (typeof QR_STYLES)[number];

/** A square of modules in the middle of a code, from its top-left module, that a logo covers. */
export interface LogoBox {
  start: number;
  modules: number;
}

/** The space left between a logo and the modules around its box, in modules. */
const LOGO_PADDING = 0.5;

/** The square a logo is drawn in: inside its box less the padding, in modules from the code's first module. */
export function logoSquare(box: LogoBox): { start: number; side: number } {
  return { start: box.start + LOGO_PADDING, side: box.modules - LOGO_PADDING * 2 };
}

/** Whether the module at (row, column) is dark; outside the code, light. */
export function isDark({ size, data }: QrModules, row: number, column: number): boolean {
  return row >= 0 && column >= 0 && row < size && column < size && data[row * size + column] !== 0;
}

/** Corners of a module, as bits of {@link roundedCorners}. */
export const CORNER = { topLeft: 1, topRight: 2, bottomRight: 4, bottomLeft: 8 } as const;

/**
 * Which corners of a dark data module are rounded: those where both the modules beside it on that corner's sides
 * are light, so that runs and blocks of modules stay joined and a lone module is a dot; its middle, where a reader
 * samples it, is always dark. The patterns a reader finds by their shape (finders, alignment, timing) stay square:
 * rounded finders beside a busy logo were read half as often.
 */
export function roundedCorners(modules: QrModules, row: number, column: number): number {
  if (modules.reserved?.[row * modules.size + column]) return 0;
  const up = isDark(modules, row - 1, column);
  const down = isDark(modules, row + 1, column);
  const left = isDark(modules, row, column - 1);
  const right = isDark(modules, row, column + 1);
  return (
    (!up && !left ? CORNER.topLeft : 0) |
    (!up && !right ? CORNER.topRight : 0) |
    (!down && !right ? CORNER.bottomRight : 0) |
    (!down && !left ? CORNER.bottomLeft : 0)
  );
}

/** The modules with those in `box` made light: what a logo covers is not drawn under it. */
export function withoutBox(modules: QrModules, box: LogoBox): QrModules {
  const data = Uint8Array.from(modules.data);
  for (let row = box.start; row < box.start + box.modules; row += 1) {
    data.fill(0, row * modules.size + box.start, row * modules.size + box.start + box.modules);
  }
  return { ...modules, data };
}
