#!/usr/bin/env node
// The large fuzz run: the generated-requests test with more requests than CI sends.
//   npm run fuzz                      100,000 requests, a new seed
//   npm run fuzz -- --runs=20000 --seed=123456
// DATABASE_URL selects a PostgreSQL server, as for npm test; without it the embedded database serves the run.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const options = { runs: '100000', seed: undefined };
for (const argument of process.argv.slice(2)) {
  const match = /^--(runs|seed)=(\d+)$/.exec(argument);
  if (match === null) {
    process.stderr.write(`Unknown argument ${argument}; usage: npm run fuzz -- [--runs=N] [--seed=N]\n`);
    process.exit(64);
  }
  options[match[1]] = match[2];
}

const env = { ...process.env, FUZZ_RUNS: options.runs };
if (options.seed !== undefined) env.FUZZ_SEED = options.seed;
const root = join(__dirname, '..');
const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const result = spawnSync(
  process.execPath,
  [jest, '--ci', '--runTestsByPath', join('test', 'fuzz.e2e-spec.ts')],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
