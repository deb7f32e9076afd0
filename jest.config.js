const { readdirSync } = require('node:fs');
const { availableParallelism, totalmem } = require('node:os');
const { join } = require('node:path');

/** @type {import('jest').Config} */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
  },
];

/** The specs that start processes of their own: the built server, the CLI, a second instance, a proxy. */
const PROCESS_SPECS = [
  'autovacuum',
  'cli',
  'click-durability',
  'database-faults',
  'database-refused',
  'embedded',
  'import-resume',
  'event-delivery-processes',
  'npm-start',
  'phpshort-import',
  'read-replicas',
  'shutdown',
  'two-instances',
  'two-instances-limits',
].map((name) => `<rootDir>/test/${name}.e2e-spec.ts`);

/**
 * A worker a core, as far as memory goes: a worker that has booted a few files' applications holds 1.3-1.8 GB.
 * At least two, the reference machine's cores (`--maxWorkers` overrides it).
 */
const WORKERS = Math.max(2, Math.min(availableParallelism(), Math.floor(totalmem() / 2 ** 31)));

/** The single sign-on client and what it is made of: ES modules only too. */
const OTHER_ESM = ['openid-client', 'oauth4webapi', 'jose'];

/** The Nest packages that ship ES modules only: Jest turns them into CommonJS (test/support/esm-transformer.js). */
const NEST_ESM = readdirSync(join(__dirname, 'node_modules/@nestjs')).filter(
  (name) => require(`./node_modules/@nestjs/${name}/package.json`).type === 'module',
);

const common = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': swc,
    '/node_modules/.+\\.js$': '<rootDir>/test/support/esm-transformer.js',
  },
  // Everything in node_modules is run as it is, but those packages.
  transformIgnorePatterns: [
    `/node_modules/(?!(?:@nestjs/(?:${NEST_ESM.join('|')})|${OTHER_ESM.join('|')})/)`,
  ],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The map's projection ships ES modules (which Node requires as they are) beside a CommonJS build, which Jest takes.
  moduleNameMapper: { '^d3-(geo|array)$': '<rootDir>/node_modules/d3-$1/dist/d3-$1.js' },
  // The dashboard is a project of its own, with its own tests (vitest) and its own packages.
  modulePathIgnorePatterns: ['<rootDir>/dashboard/'],
};

/** One database for the API and process tiers, made once however many of them run. */
const withDatabase = {
  ...common,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

/**
 * Three tiers, each a project: `unit` (pure logic beside the code, and the docs' links: no database, no set-up), `api` (the app in the
 * test process, over HTTP, on PostgreSQL or the embedded database), `process` (servers and commands started as
 * production starts them). `npm test` runs all three; `npm run test:unit` the first.
 */
module.exports = {
  testTimeout: 60_000,
  maxWorkers: WORKERS,
  projects: [
    {
      ...common,
      displayName: 'unit',
      // Beside the code; and under test/, what checks the repository without an app (the docs' links).
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/*.spec.ts'],
    },
    {
      ...withDatabase,
      displayName: 'api',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...PROCESS_SPECS.map((path) => path.replace('<rootDir>', '')),
      ],
    },
    { ...withDatabase, displayName: 'process', testMatch: PROCESS_SPECS },
  ],
};
