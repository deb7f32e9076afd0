import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Every relative link and anchor of the README and of docs/*.md leads somewhere: a file or folder that exists, and
 * a heading of the page it names, by GitHub's slugs. No database and no app: it reads Markdown.
 */
const ROOT = join(__dirname, '..');
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

/** The lines outside fenced code blocks, with inline code spans blanked out. */
function prose(markdown: string): string[] {
  let fence: string | undefined;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      lines.push('');
      continue;
    }
    lines.push(fence === undefined ? line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)) : '');
  }
  return lines;
}

/** GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*`]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorsByPage = new Map<string, Set<string>>();

function anchorsOf(page: string): Set<string> {
  let anchors = anchorsByPage.get(page);
  if (anchors === undefined) {
    anchors = new Set();
    const seen = new Map<string, number>();
    let fence: string | undefined;
    for (const line of readFileSync(page, 'utf8').split('\n')) {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
        fence = fence === undefined ? marker : undefined;
        continue;
      }
      const heading = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1] : undefined;
      if (heading === undefined) continue;
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    anchorsByPage.set(page, anchors);
  }
  return anchors;
}

/** The relative targets of a page's links and images, with the line each is on. */
function relativeLinks(page: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  prose(readFileSync(page, 'utf8')).forEach((text, index) => {
    for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ target, line: index + 1 });
    }
  });
  return links;
}

function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of relativeLinks(page)) {
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
    const where = `${relative(ROOT, page)}:${line} ${target}`;
    if (!existsSync(file)) {
      broken.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (statSync(file).isDirectory() || !file.endsWith('.md')) {
      broken.push(`${where}: an anchor into a page that is not Markdown`);
    } else if (!anchorsOf(file).has(decodeURIComponent(anchor))) {
      broken.push(`${where}: no heading with that anchor`);
    }
  }
  return broken;
}

describe('links in the README and docs/', () => {
  it('reads the pages it checks', () => {
    expect(PAGES.map((page) => relative(ROOT, page))).toEqual(expect.arrayContaining(['README.md']));
    expect(PAGES.length).toBeGreaterThan(1);
  });

  it('finds GitHub’s anchors for headings', () => {
    expect(slug('Behind a proxy or load balancer')).toBe('behind-a-proxy-or-load-balancer');
    expect(slug('Keys over the API: scopes, spaces, expiry')).toBe('keys-over-the-api-scopes-spaces-expiry');
    expect(slug('OWASP API Security Top 10 (2023)')).toBe('owasp-api-security-top-10-2023');
    expect(slug('phpShort compatibility')).toBe('phpshort-compatibility');
    expect(slug('The `CLICK_DURABILITY` setting')).toBe('the-click_durability-setting');
  });

  it.each(PAGES.map((page) => [relative(ROOT, page), page]))(
    'every relative link of %s resolves',
    (_name, page) => {
      expect(brokenLinks(page)).toEqual([]);
    },
  );
});
