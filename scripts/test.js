#!/usr/bin/env node
// `npm test`: the service's suites (jest, with the arguments given), then the dashboard's component tests. With
// test files named, only jest runs them.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const args = process.argv.slice(2);
const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), ...args], { stdio: 'inherit' });
if (jest.status !== 0) process.exit(jest.status ?? 1);
if (args.some((arg) => !arg.startsWith('-'))) process.exit(0);
const dashboard = spawnSync('npm', ['test'], { cwd: join(__dirname, '..', 'dashboard'), stdio: 'inherit' });
process.exit(dashboard.status ?? 1);
