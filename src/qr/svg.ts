import {
  CORNER,
  isDark,
  logoSquare,
  roundedCorners,
  type LogoBox,
  type QrModules,
  type QrStyle,
} from './modules';

/** A logo as the SVG embeds it: its media type and bytes, drawn inside `box`. */
export interface SvgLogo {
  contentType: 'image/png' | 'image/svg+xml';
  bytes: Buffer;
  box: LogoBox;
}

/** How the modules are drawn: the width asked for, the quiet zone in modules, two colours as six hex digits. */
export interface SvgDrawing {
  width: number;
  margin: number;
  dark: string;
  light: string;
  style: QrStyle;
  logo: SvgLogo | null;
}

/**
 * The dark modules as horizontal strokes of one module's width through the middle of each row, one `h` per run:
 * the `qrcode` package's own path, so that a square code is the same SVG as the package writes, byte for byte.
 */
function squarePath({ size, data }: QrModules, margin: number): string {
  let path = '';
  let moveBy = 0;
  let newRow = false;
  let run = 0;
  for (let index = 0; index < data.length; index += 1) {
    const column = index % size;
    const row = Math.floor(index / size);
    if (column === 0 && !newRow) newRow = true;
    if (!data[index]) {
      moveBy += 1;
      continue;
    }
    run += 1;
    if (!(index > 0 && column > 0 && data[index - 1])) {
      path += newRow ? `M${column + margin} ${0.5 + row + margin}` : `m${moveBy} 0`;
      moveBy = 0;
      newRow = false;
    }
    if (!(column + 1 < size && data[index + 1])) {
      path += `h${run}`;
      run = 0;
    }
  }
  return path;
}

/**
 * Each horizontal run of dark modules as one shape drawn clockwise, its free corners arcs of half a module: inside
 * a run no corner is free, so only its two ends are rounded, as {@link roundedCorners} rounds them. One path, so
 * that touching shapes fill as one without seams between them.
 */
function roundedPath(modules: QrModules, margin: number): string {
  const parts: string[] = [];
  const arc = (radius: number, dx: number, dy: number) =>
    radius === 0 ? '' : `a.5 .5 0 0 1 ${dx * radius} ${dy * radius}`;
  // Lengths of zero (`h0`, `v0`) draw nothing: left out to keep the document small.
  const line = (command: 'h' | 'v', length: number) => (length === 0 ? '' : `${command}${length}`);
  for (let row = 0; row < modules.size; row += 1) {
    for (let first = 0; first < modules.size; first += 1) {
      if (!isDark(modules, row, first)) continue;
      let last = first;
      while (isDark(modules, row, last + 1)) last += 1;
      const length = last - first + 1;
      const start = roundedCorners(modules, row, first);
      const end = roundedCorners(modules, row, last);
      const topLeft = start & CORNER.topLeft ? 0.5 : 0;
      const bottomLeft = start & CORNER.bottomLeft ? 0.5 : 0;
      const topRight = end & CORNER.topRight ? 0.5 : 0;
      const bottomRight = end & CORNER.bottomRight ? 0.5 : 0;
      parts.push(
        `M${first + margin + topLeft} ${row + margin}` +
          `${line('h', length - topLeft - topRight)}${arc(topRight, 1, 1)}` +
          `${line('v', 1 - topRight - bottomRight)}${arc(bottomRight, -1, 1)}` +
          `${line('h', -(length - bottomRight - bottomLeft))}${arc(bottomLeft, -1, -1)}` +
          `${line('v', -(1 - bottomLeft - topLeft))}${arc(topLeft, 1, -1)}z`,
      );
      first = last;
    }
  }
  return parts.join('');
}

/** The logo as an image inside its box, less the padding, scaled to fit whatever its proportions. */
function logoImage(logo: SvgLogo, margin: number): string {
  const { start, side } = logoSquare(logo.box);
  const at = margin + start;
  // Embedded as an image, never inline: an SVG image runs no script and loads nothing, whatever it holds.
  return (
    `<image x="${at}" y="${at}" width="${side}" height="${side}" preserveAspectRatio="xMidYMid meet" ` +
    `xlink:href="data:${logo.contentType};base64,${logo.bytes.toString('base64')}"/>`
  );
}

/**
 * A QR code as SVG, in units of modules scaled to `width`. A square code without a logo is the `qrcode` package's
 * document as it writes it; a rounded one is left to the renderer's anti-aliasing, which crisp edges would jag.
 */
export function qrSvg(modules: QrModules, drawing: SvgDrawing): string {
  const whole = modules.size + drawing.margin * 2;
  const namespaces =
    drawing.logo === null
      ? 'xmlns="http://www.w3.org/2000/svg"'
      : 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
  const rendering = drawing.style === 'square' ? ' shape-rendering="crispEdges"' : '';
  const background = `<path fill="#${drawing.light}" d="M0 0h${whole}v${whole}H0z"/>`;
  const foreground =
    drawing.style === 'square'
      ? `<path stroke="#${drawing.dark}" d="${squarePath(modules, drawing.margin)}"/>`
      : `<path fill="#${drawing.dark}" d="${roundedPath(modules, drawing.margin)}"/>`;
  const logo = drawing.logo === null ? '' : logoImage(drawing.logo, drawing.margin);
  return (
    `<svg ${namespaces} width="${drawing.width}" height="${drawing.width}" viewBox="0 0 ${whole} ${whole}"` +
    `${rendering}>${background}${foreground}${logo}</svg>\n`
  );
}
