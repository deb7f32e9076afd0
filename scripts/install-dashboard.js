#!/usr/bin/env node
// After the service's own install: the dashboard's (dashboard/, a front-end project with its own lockfile), so that
// `npm install && npm start` builds and serves it on a fresh clone. Skipped by a production install (--omit=dev):
// the dashboard is built before such an install, and only its built files are served.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dashboard = join(__dirname, '..', 'dashboard');
const omitted = (process.env.npm_config_omit ?? '').split(/[\s,]+/);
if (omitted.includes('dev') || process.env.NODE_ENV === 'production') process.exit(0);

// npm ci again only when the lockfile changed since the last install of it.
const lockfile = join(dashboard, 'package-lock.json');
const stamp = join(dashboard, 'node_modules', '.install-stamp');
if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lockfile).mtimeMs) process.exit(0);
process.stderr.write('Installing the dashboard...\n');
execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dashboard, stdio: 'inherit' });
writeFileSync(stamp, new Date().toISOString());
