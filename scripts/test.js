#!/usr/bin/env node
// `npm test`: the service's suites (jest, with the arguments given), then the dashboard's component tests. One after
// the other: both are bound by the processor, and the dashboard's beside jest's workers would slow every API file
// past its statement timeout on a two-core machine for no gain in wall time. With test files named, only jest runs.
'use strict';
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const args = process.argv.slice(2);

function finished(child) {
  return new Promise((done) => child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
}

async function main() {
  const jestStatus = await finished(
    spawn(process.execPath, [require.resolve('jest/bin/jest'), ...args], { stdio: 'inherit' }),
  );
  if (args.some((arg) => !arg.startsWith('-'))) return jestStatus;
  // Run even when jest failed, so that one run reports both.
  const dashboardStatus = await finished(
    spawn('npm', ['test'], { cwd: join(__dirname, '..', 'dashboard'), stdio: 'inherit' }),
  );
  return jestStatus !== 0 ? jestStatus : dashboardStatus;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
