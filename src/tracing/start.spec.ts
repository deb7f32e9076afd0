import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * What main.ts's first import does, in a process of its own (jest's module registry hides Node's): with no OTLP
 * endpoint nothing of OpenTelemetry is loaded and `http` and `pg` are not patched; with one they are.
 */
function probe(env: Record<string, string>): { loaded: string[]; httpPatched: boolean; pgPatched: boolean } {
  const start = join(__dirname, 'start.ts');
  const script = `
    require(${JSON.stringify(start)});
    const http = require('node:http');
    const pg = require('pg');
    const loaded = Object.keys(require.cache).filter((path) => path.includes('@opentelemetry'));
    process.stdout.write(JSON.stringify({
      loaded,
      httpPatched: '__wrapped' in http.Server.prototype.emit,
      pgPatched: '__wrapped' in pg.Client.prototype.query,
    }));
  `;
  const output = execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], {
    cwd: join(__dirname, '..', '..'),
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(output) as { loaded: string[]; httpPatched: boolean; pgPatched: boolean };
}

describe('tracing start', () => {
  it('loads and patches nothing when no OTLP endpoint is set', () => {
    expect(probe({})).toEqual({ loaded: [], httpPatched: false, pgPatched: false });
  });

  it('patches http and pg as they load when an endpoint is set', () => {
    // No span is made, so nothing is sent to this port.
    const on = probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(on.loaded.length).toBeGreaterThan(0);
    expect(on).toMatchObject({ httpPatched: true, pgPatched: true });
  });
});
