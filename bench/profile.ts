/**
 * Sums a V8 CPU profile (.cpuprofile, from `npm run bench -- --cpu-prof=DIR`) by self time: the top functions, and
 * the share of each package or source folder. Usage: npx tsx bench/profile.ts FILE [TOP]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from: a package, a folder of dist/, node's internals, or V8's own entries. */
function owner(url: string, name: string): string {
  if (url === '') return `(${name || 'anonymous'})`;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch !== null) return packageMatch[1];
  const distMatch = /\/dist\/(?:src\/)?([^/]+)\//.exec(url);
  if (distMatch !== null) return `src/${distMatch[1]}`;
  if (url.startsWith('node:')) return url;
  return url.split('/').slice(-2).join('/');
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('Usage: npx tsx bench/profile.ts FILE.cpuprofile [TOP]\n');
    process.exit(2);
  }
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  let total = 0;
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    total += us;
    const where = url === '' ? '' : ` ${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}`;
    const key = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const group = owner(url, functionName);
    byOwner.set(group, (byOwner.get(group) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const print = (title: string, entries: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${share(us)}  ${key}\n`);
    }
  };
  process.stdout.write(`${file}: ${(total / 1e6).toFixed(2)} s sampled\n`);
  print('Self time by owner', byOwner);
  print('Self time by function', byFunction);
}

main();
