import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createDatabase, dropDatabase, onRealPostgres } from './test-database';

export interface ScratchDatabase {
  url: string;
  drop: () => Promise<void>;
}

const MEMORY_SERVER = `
const { openMemoryDatabase } = require(${JSON.stringify(join(__dirname, '..', '..', 'dist', 'database', 'embedded-database.js'))});
openMemoryDatabase().then((db) => {
  process.stdout.write(db.url + '\\n');
  process.stdin.resume();
  process.stdin.on('end', () => db.close().then(() => process.exit(0)));
});`;

/**
 * An empty database of a test's own: another database on the run's server, or, on the embedded run, another
 * in-memory embedded database in a child process (PGlite cannot load inside a jest worker's VM context).
 */
export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  if (onRealPostgres()) {
    const server = process.env.TEST_DATABASE_SERVER_URL!;
    const url = await createDatabase(server, prefix);
    return { url, drop: () => dropDatabase(server, url) };
  }
  return memoryDatabase();
}

/** An in-memory embedded database in a child process, on either run. */
export async function memoryDatabase(): Promise<ScratchDatabase> {
  const child = spawn(process.execPath, ['-e', MEMORY_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the scratch database did not start in 30 s')), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) {
        clearTimeout(timer);
        resolve(output.trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`the scratch database exited with ${code}`)));
  });
  return {
    url,
    drop: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.stdin.end();
      }),
  };
}
