/**
 * What may import what, checked in CI (`npm run depcheck`). The layers, from the bottom:
 *
 * - `config/` the settings; imports nothing of ours.
 * - `common/` what every feature shares (envelopes, errors, validation, list requests), without SQL; imports
 *   `config/` only.
 * - `database/` the data source, migrations, the embedded database, transactions, the lists' search, order and page,
 *   the account quotas' lock and the pool's counts; imports `config/` and `common/`, never an entity: entities and migrations are
 *   found by file name.
 * - `links/status/` the link-status rule, in TypeScript (`link-status.ts`) and in SQL (`link-status.repository.ts`);
 *   imports nothing, so that `clicks/` states it in its claim as the lists do.
 * - `auth/` accounts, keys and the guards; `targeting/`, `metrics/`, `qr/`, `clicks/`, `limits/`: services the
 *   features use.
 * - the features (`spaces/`, `domains/`, `pixels/`, `links/`, `stats/`, `accounts/`, `health/`). Within each, a
 *   service holds the use case and its repository every query: services never import `typeorm`.
 * - `events/` the outbox (`events/outbox/`), the worker, `webhooks/` and the stream sinks. The features reach it
 *   through the outbox alone: the statement or function that records an event in their own transaction.
 * - `visits/` the visitor side: the visit pipeline, its writer and the visitor routes, the pages visitors see
 *   (`pages/`: views, one catalogue per language, CSS, the pixels script), the visitor routes' limits (`limits/`)
 *   and a link's public stats page (`stats-page/`). Nothing imports it but the application's wiring (`src/*.ts`).
 * - `cli/` the commands of the CLI, which nothing imports but its wiring (`src/cli.ts`).
 * - `tracing/` the OpenTelemetry set-up, which main.ts imports first of all: it imports nothing of ours but the
 *   alias pattern (`links/alias.ts`, `links/reserved-aliases.ts`, which import nothing), so that it loads before the
 *   modules it patches.
 */
const FEATURES =
  'src/(accounts|domains|health|links|pixels|spaces|stats|visits|events|qr|clicks|metrics|targeting|auth|limits|people|audit)/';

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment: 'Two folders that import each other cannot be understood, moved or tested apart.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-cycle',
      comment:
        'Two files that import each other, however far round, cannot be read or changed one at a time.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'config-imports-nothing',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'common-imports-config-only',
      comment: 'common/ is what features share: it knows none of them.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/(common|config)/' },
    },
    {
      name: 'link-status-imports-nothing',
      comment:
        'The link-status rule sits below clicks/, which states it in its claim, and the features above it.',
      severity: 'error',
      from: { path: '^src/links/status/' },
      to: { path: '^src/', pathNot: '^src/links/status/' },
    },
    {
      name: 'services-use-repositories',
      comment:
        "A service reads as the use case: its queries sit in its feature's repository, and a transaction that " +
        "spans repositories is database/transactions.ts's.",
      severity: 'error',
      from: { path: '^src/.+\\.service\\.ts$' },
      to: { path: '(^|/)node_modules/(typeorm|@nestjs/typeorm)/' },
    },
    {
      name: 'database-knows-no-feature',
      comment: 'Entities register themselves (forFeature) and are found by file name; migrations too.',
      severity: 'error',
      from: { path: '^src/database/' },
      to: { path: `^${FEATURES}` },
    },
    {
      name: 'nothing-imports-visits',
      comment: 'The visitor routes sit on top: only the wiring in src/*.ts knows them.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: '^src/visits/' },
      to: { path: '^src/visits/' },
    },
    {
      name: 'features-reach-events-through-the-outbox',
      comment:
        'An event is recorded in the transaction of the change that makes it, through the outbox; the worker, ' +
        'the webhooks and the sinks that deliver it are known to nothing but the wiring.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: '^src/events/' },
      to: { path: '^src/events/', pathNot: '^src/events/outbox/' },
    },
    {
      name: 'nothing-imports-cli',
      comment:
        'The commands sit on top, beside the visitor routes: only the CLI wiring in src/*.ts knows them.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'tracing-imports-the-alias-pattern-only',
      comment:
        'main.ts imports tracing/ first, before http and pg are required: it must not bring them in itself. It ' +
        'reads its settings from the schema, which requires neither.',
      severity: 'error',
      from: { path: '^src/tracing/' },
      to: {
        path: '^src/',
        pathNot: '^src/(tracing/|links/alias\\.ts$|links/reserved-aliases\\.ts$|config/settings\\.ts$)',
      },
    },
    {
      name: 'nothing-imports-tracing',
      comment: 'Only main.ts starts traces.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(tracing/|main\\.ts$)' },
      to: { path: '^src/tracing/' },
    },
    {
      name: 'nothing-imports-the-wiring',
      comment: 'app.module.ts, app.ts, main.ts and cli.ts assemble the features; no feature depends on them.',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'src-never-imports-tests',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages that name their entry points in package.json "exports" (csv-parse/sync, pglite/contrib/...).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['require', 'node', 'default', 'types'],
    },
  },
};
