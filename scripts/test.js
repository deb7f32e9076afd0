#!/usr/bin/env node
// `npm test`: the service's suites (jest, with the arguments given) and, beside them, the dashboard's component
// tests, whose output follows jest's once both are done. With test files named, only jest runs them.
'use strict';
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const args = process.argv.slice(2);

function finished(child) {
  return new Promise((done) => child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
}

async function main() {
  const jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), ...args], { stdio: 'inherit' });
  if (args.some((arg) => !arg.startsWith('-'))) return finished(jest);

  // Kept apart until jest is done, so that neither report interleaves with the other.
  const output = [];
  const dashboard = spawn('npm', ['test'], {
    cwd: join(__dirname, '..', 'dashboard'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
  });
  dashboard.stdout.on('data', (chunk) => output.push(chunk));
  dashboard.stderr.on('data', (chunk) => output.push(chunk));
  const [jestStatus, dashboardStatus] = await Promise.all([finished(jest), finished(dashboard)]);
  process.stdout.write(Buffer.concat(output));
  return jestStatus !== 0 ? jestStatus : dashboardStatus;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
