/** Why an SVG logo is refused, in the words of the 422 on `logo`. */
export type SvgProblem = 'not-svg' | 'unsafe';

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/** The five entities XML predefines; any other needs a DOCTYPE, which a logo may not have. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Elements that run script, hold another document or load one, and animations (which can set an attribute such
 * as an `href` after every check), refused by their local name whatever their prefix.
 */
const REFUSED_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'embed',
  'object',
  'audio',
  'video',
  'handler',
  'listener',
  'set',
  'animate',
  'animatemotion',
  'animatetransform',
  'animatecolor',
  'discard',
]);

/** Images an `href` may hold inline: raster ones, which can neither run script nor load anything. */
const INLINE_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/** What each `url(` in a text points at: its first characters past blanks and a quote. */
const URL_TARGETS = /url\(\s*['"]?\s*(.?)/gi;

const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?$/;

class NotSvg extends Error {}
class Unsafe extends Error {}

/** Text with its character and predefined entity references resolved; any other entity is not well-formed. */
function decoded(text: string): string {
  return text.replace(/&([^;\s&]*);?/g, (reference, name: string) => {
    if (!reference.endsWith(';')) throw new NotSvg();
    if (/^#x[0-9a-f]+$/i.test(name)) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (/^#\d+$/.test(name)) return String.fromCodePoint(parseInt(name.slice(1), 10));
    const entity = ENTITIES[name];
    if (entity === undefined) throw new NotSvg();
    return entity;
  });
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1).toLowerCase();
}

/** CSS that loads what it names without `url(`: imports, image functions. */
const LOADING_CSS = /@import|image-set\(|image\(|src\(/i;

/**
 * A style sheet or attribute that imports another or points outside the document: any `url(...)` but a fragment of
 * it (`url(#gradient)`). CSS escapes are refused too: `\75 rl(` is a `url(` once read.
 */
function checkStyle(text: string): void {
  if (text.includes('\\') || LOADING_CSS.test(text)) throw new Unsafe();
  for (const [, target] of text.matchAll(URL_TARGETS)) if (target !== '#') throw new Unsafe();
}

/** Attributes a renderer reads: SVG's own (no prefix), and `xlink:` and `xml:` ones; an editor's it ignores. */
function isRendered(name: string): boolean {
  return !name.includes(':') || /^(xlink|xml):/i.test(name);
}

/** One attribute: no event handler, no reference outside the document, no style that makes one. */
function checkAttribute(name: string, value: string): void {
  const local = localName(name);
  if (local.startsWith('on')) throw new Unsafe();
  const trimmed = value.trim();
  if ((local === 'href' || local === 'src') && !trimmed.startsWith('#') && !INLINE_IMAGE.test(trimmed)) {
    throw new Unsafe();
  }
  // Presentation attributes (`fill`, `mask`) are read as CSS, as `style` is.
  if (isRendered(name)) checkStyle(value);
}

interface Tag {
  name: string;
  attributes: Map<string, string>;
  selfClosing: boolean;
  end: number;
}

/** The start tag at `start` (just past its `<`): its name and attributes, each once, quoted as XML wants. */
function startTag(text: string, start: number): Tag {
  const nameMatch = /^[^\s/>]+/.exec(text.slice(start, start + 200));
  if (nameMatch === null || !NAME.test(nameMatch[0])) throw new NotSvg();
  const attributes = new Map<string, string>();
  let at = start + nameMatch[0].length;
  const attribute = /\s+([^\s=/>]+)\s*=\s*("([^"<]*)"|'([^'<]*)')|\s*(\/?>)/y;
  for (;;) {
    attribute.lastIndex = at;
    const match = attribute.exec(text);
    if (match === null) throw new NotSvg();
    at = attribute.lastIndex;
    if (match[5] !== undefined)
      return { name: nameMatch[0], attributes, selfClosing: match[5] === '/>', end: at };
    const name = match[1];
    if (!NAME.test(name) || attributes.has(name)) throw new NotSvg();
    attributes.set(name, decoded(match[3] ?? match[4]));
  }
}

/**
 * Reads an SVG logo as XML, strictly: one root `svg` element in the SVG namespace (or in none, as hand-written
 * files often leave it), well-formed, without entities of its own (they could hide what is checked, or expand
 * without bound) or processing instructions (a style sheet would load). Then refuses what could run or load
 * anything when the code that embeds it is opened: scripts, event handlers (`on...`), animations, foreign objects,
 * and references (`href`, `src`, `url(...)`, `@import`) to anything but the logo's own elements or an inline raster
 * image. Answers the logo to keep, its root named in the SVG namespace where it named none (an image renderer
 * reads an element outside it as no SVG, and draws nothing), or the problem.
 */
export function checkSvgLogo(text: string): { text: string } | { problem: SvgProblem } {
  try {
    const unnamedRootEnd = check(text);
    if (unnamedRootEnd === null) return { text };
    return { text: `${text.slice(0, unnamedRootEnd)} xmlns="${SVG_NAMESPACE}"${text.slice(unnamedRootEnd)}` };
  } catch (error) {
    if (error instanceof NotSvg) return { problem: 'not-svg' };
    if (error instanceof Unsafe) return { problem: 'unsafe' };
    throw error;
  }
}

/** Why {@link checkSvgLogo} refuses the logo, or null when it takes it. */
export function svgLogoProblem(text: string): SvgProblem | null {
  const checked = checkSvgLogo(text);
  return 'problem' in checked ? checked.problem : null;
}

/** Throws what is wrong with the logo; answers where the root's name ends when it names no namespace, else null. */
function check(text: string): number | null {
  const open: string[] = [];
  let root: Tag | null = null;
  let unnamedRootEnd: number | null = null;
  let styleDepth = 0;
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  const declaration = /^<\?xml\s[^?]*\?>/.exec(text.slice(at));
  if (declaration !== null) at += declaration[0].length;
  while (at < text.length) {
    const next = text.indexOf('<', at);
    const content = text.slice(at, next === -1 ? text.length : next);
    if (open.length === 0 ? content.trim() !== '' : content.includes(']]>')) throw new NotSvg();
    if (open.length > 0) {
      const characters = decoded(content);
      if (styleDepth > 0) checkStyle(characters);
    }
    if (next === -1) break;
    if (text.startsWith('<!--', next)) {
      const end = text.indexOf('-->', next + 4);
      if (end === -1) throw new NotSvg();
      at = end + 3;
    } else if (text.startsWith('<![CDATA[', next)) {
      const end = text.indexOf(']]>', next + 9);
      if (end === -1 || open.length === 0) throw new NotSvg();
      if (styleDepth > 0) checkStyle(text.slice(next + 9, end));
      at = end + 3;
    } else if (root === null && /^<!DOCTYPE\s[^[<>]*>/i.test(text.slice(next, next + 500))) {
      // The DOCTYPE some editors write, naming the SVG 1.1 DTD: nothing reads it; one with entities is refused.
      at = text.indexOf('>', next) + 1;
    } else if (text.startsWith('<!', next) || text.startsWith('<?', next)) {
      throw new Unsafe();
    } else if (text.startsWith('</', next)) {
      const end = /^<\/([^\s>]+)\s*>/.exec(text.slice(next, next + 300));
      if (end === null || open.pop() !== end[1]) throw new NotSvg();
      if (localName(end[1]) === 'style') styleDepth -= 1;
      at = next + end[0].length;
    } else {
      if (open.length === 0 && root !== null) throw new NotSvg();
      const tag = startTag(text, next + 1);
      if (REFUSED_ELEMENTS.has(localName(tag.name))) throw new Unsafe();
      for (const [name, value] of tag.attributes) checkAttribute(name, value);
      if (root === null) {
        root = tag;
        const prefix = tag.name.includes(':') ? tag.name.slice(0, tag.name.indexOf(':')) : null;
        const namespace = tag.attributes.get(prefix === null ? 'xmlns' : `xmlns:${prefix}`);
        // An `<svg>` that names no namespace at all is taken as SVG, and named; one in another namespace is not.
        const unnamed = prefix === null && namespace === undefined;
        if (localName(tag.name) !== 'svg' || (namespace !== SVG_NAMESPACE && !unnamed)) throw new NotSvg();
        if (unnamed) unnamedRootEnd = next + 1 + tag.name.length;
      }
      if (!tag.selfClosing) {
        open.push(tag.name);
        if (localName(tag.name) === 'style') styleDepth += 1;
      }
      at = tag.end;
    }
  }
  if (root === null || open.length > 0) throw new NotSvg();
  return unnamedRootEnd;
}
