// PGlite's contrib entry points export their CommonJS build at runtime, but only ESM typings, which the
// CommonJS module resolution of this project cannot reach.
declare module '@electric-sql/pglite/contrib/pg_trgm' {
  import type { Extension } from '@electric-sql/pglite';
  export const pg_trgm: Extension;
}
