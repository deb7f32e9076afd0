// After `vite build`: the JavaScript that the index page loads must stay within the first-load budget, and the
// index page must load nothing a strict Content-Security-Policy would refuse (inline code, other origins).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const BASE = '/app/assets/';
const dist = join(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const problems = [];

/** @param {string} file */
const gzipKb = (file) => gzipSync(readFileSync(join(dist, 'assets', file)), { level: 9 }).length / 1024;

// Every URL the page names; each must be a file under /app/assets/.
const urls = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1] ?? '');
for (const url of urls) if (!url.startsWith(BASE)) problems.push(`index.html loads ${url}, outside ${BASE}`);
if (/<script(?![^>]*\ssrc=)[^>]*>/.test(html)) problems.push('index.html has an inline <script>');
if (/<style[\s>]/.test(html) || /\sstyle="/.test(html)) problems.push('index.html has inline styles');

// The entry script and the chunks it preloads are what the first load runs; lazy routes come later.
const firstLoad = urls.filter((url) => url.endsWith('.js')).map((url) => url.slice(BASE.length));
const firstKb = firstLoad.reduce((sum, file) => sum + gzipKb(file), 0);
const allJs = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js'));
const totalKb = allJs.reduce((sum, file) => sum + gzipKb(file), 0);

console.log(
  `first load: ${firstKb.toFixed(1)} KB of JavaScript gzip-compressed (${firstLoad.length} files; budget ${BUDGET_KB} KB)`,
);
console.log(`all JavaScript: ${totalKb.toFixed(1)} KB gzip-compressed in ${allJs.length} files`);
if (firstKb > BUDGET_KB)
  problems.push(`the first load is ${firstKb.toFixed(1)} KB, over the ${BUDGET_KB} KB budget`);

for (const problem of problems) console.error(`check-build: ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
