#!/usr/bin/env node
// Builds dist/ and the dashboard when missing or older than their sources, so `npm start` works on a fresh clone.
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
  execFileSync(process.execPath, [join(__dirname, 'build.js')], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  writeFileSync(marker, new Date().toISOString());
}

// The dashboard's build, when it is missing or older than its sources (and the dashboard is installed: a
// production install serves the build it was given).
const dashboard = join(root, 'dashboard');
const dashboardStamp = join(dashboard, 'dist', '.build-stamp');
if (existsSync(join(dashboard, 'node_modules'))) {
  const dashboardTime = Math.max(
    newest(join(dashboard, 'src')),
    ...['index.html', 'package.json', 'vite.config.ts'].map(
      (file) => statSync(join(dashboard, file)).mtimeMs,
    ),
  );
  if (!existsSync(dashboardStamp) || statSync(dashboardStamp).mtimeMs < dashboardTime) {
    process.stderr.write('Building the dashboard...\n');
    // A production build whoever asks for it: jest runs this with NODE_ENV=test, which would make Vite bundle
    // React's development build, 60 KB more.
    execFileSync('npm', ['run', 'build'], {
      cwd: dashboard,
      stdio: ['ignore', process.stderr, process.stderr],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    writeFileSync(dashboardStamp, new Date().toISOString());
  }
}
