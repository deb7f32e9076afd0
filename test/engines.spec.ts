import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { subset, validRange } from 'semver';

/**
 * Every package the lockfiles install (the service's and the dashboard's) accepts every Node.js the service
 * declares in `engines`, so that `npm ci` and `npm install` print no EBADENGINE warning on any of them.
 */
const ROOT = join(__dirname, '..');
const SUPPORTED: string = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest).engines
  .node;

interface Manifest {
  engines: { node: string };
}

interface Lockfile {
  packages: Record<string, { version?: string; engines?: unknown }>;
}

/** The packages of a lockfile whose `engines.node` leaves out a Node.js that `supported` takes. */
function refusing(lockfile: Lockfile, supported: string): string[] {
  const refused: string[] = [];
  for (const [path, entry] of Object.entries(lockfile.packages)) {
    const engines = entry.engines;
    if (path === '' || typeof engines !== 'object' || engines === null || !('node' in engines)) continue;
    const node = engines.node;
    if (typeof node !== 'string') continue;
    // npm ignores a range it cannot read, and so does this check.
    if (validRange(node) === null) continue;
    if (!subset(supported, node)) refused.push(`${path}@${entry.version} (node ${node})`);
  }
  return refused;
}

function lockfile(path: string): Lockfile {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Lockfile;
}

describe('the engines of the installed packages', () => {
  it('reads the Node.js versions the service supports', () => {
    expect(validRange(SUPPORTED)).not.toBeNull();
  });

  it.each(['package-lock.json', 'dashboard/package-lock.json'])(
    '%s holds no package that refuses one',
    (path) => {
      expect(refusing(lockfile(path), SUPPORTED)).toEqual([]);
    },
  );

  it('names a package whose range leaves out a supported Node.js', () => {
    const lock: Lockfile = {
      packages: {
        '': { engines: { node: '>=22' } },
        'node_modules/old': { version: '1.0.0', engines: { node: '>=18' } },
        'node_modules/new': { version: '2.0.0', engines: { node: '>=22' } },
        'node_modules/other': { version: '3.0.0', engines: { vscode: '^1.90.0' } },
        'node_modules/unreadable': { version: '4.0.0', engines: { node: 'any' } },
      },
    };
    expect(refusing(lock, '^20.19.0 || >=22.13.0')).toEqual(['node_modules/new@2.0.0 (node >=22)']);
  });
});
