#!/usr/bin/env node
// Builds dist/ when it is missing or older than any source file, so `npm start` works on a fresh clone.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

function newest(directory) {
  let latest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

// tsc leaves unchanged outputs untouched, so the time of the last build is kept in a stamp of its own.
const marker = join(root, 'dist', '.build-stamp');
const inputs = [join(root, 'package.json'), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json')];
const sourceTime = Math.max(newest(join(root, 'src')), ...inputs.map((path) => statSync(path).mtimeMs));
if (!existsSync(marker) || statSync(marker).mtimeMs < sourceTime) {
  process.stderr.write('Building...\n');
  // stdout stays clean for the CLI's JSON result.
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  writeFileSync(marker, new Date().toISOString());
}
