#!/usr/bin/env node
// Compiles src/ into dist/ (tsc with the tsconfig nest-cli.json names) and copies beside the code the files it reads at run time.
// With --watch (`npm run start:dev`), it recompiles on every change and restarts the server after each clean compile.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { cpSync, watch } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const tsc = require.resolve('typescript/bin/tsc');
// nest-cli.json stays the project's build declaration (a Nest CLI installed globally reads it too): its source root,
// its tsconfig and its assets, the folders the code reads with readFileSync(join(__dirname, ...)).
const nest = require(join(root, 'nest-cli.json'));
const SOURCE = nest.sourceRoot;
const TSCONFIG = nest.compilerOptions.tsConfigPath;
const ASSETS = nest.compilerOptions.assets.map((asset) => asset.include.replace(/\/\*\*\/\*$/, ''));

function copyAssets() {
  for (const folder of ASSETS) {
    cpSync(join(root, SOURCE, folder), join(root, 'dist', folder), { recursive: true });
  }
}

function build() {
  const compile = spawnSync(process.execPath, [tsc, '-p', TSCONFIG], {
    cwd: root,
    stdio: 'inherit',
  });
  if (compile.status !== 0) process.exit(compile.status ?? 1);
  copyAssets();
}

function buildAndServe() {
  let server = null;
  let pending = false;
  const start = () => {
    server = spawn(process.execPath, ['--enable-source-maps', join('dist', 'main.js')], {
      cwd: root,
      stdio: 'inherit',
    });
    server.once('exit', () => {
      server = null;
      // A change came while the old server was stopping: the new one starts once the old has let go of the port.
      if (pending) {
        pending = false;
        start();
      }
    });
  };
  const restart = () => {
    if (server === null) return start();
    pending = true;
    server.kill('SIGTERM');
  };

  copyAssets();
  const compiler = spawn(process.execPath, [tsc, '-p', TSCONFIG, '--watch', '--preserveWatchOutput'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  compiler.stdout.setEncoding('utf8');
  compiler.stdout.on('data', (text) => {
    process.stderr.write(text);
    // tsc ends each pass with "Found N errors. Watching for file changes."; a compile with errors keeps the old server.
    if (/Found 0 errors\. Watching for file changes/.test(text)) restart();
  });
  const watchers = ASSETS.map((folder) =>
    watch(join(root, SOURCE, folder), { recursive: true }, () => {
      copyAssets();
      restart();
    }),
  );
  let stopping = false;
  const stop = () => {
    stopping = true;
    pending = false;
    for (const watcher of watchers) watcher.close();
    compiler.kill('SIGTERM');
    server?.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // A compiler that ends by itself ends the session; the server is stopped with it.
  compiler.once('exit', (code) => {
    if (stopping) return;
    process.exitCode = code ?? 1;
    stop();
  });
}

if (process.argv.includes('--watch')) buildAndServe();
else build();
