/**
 * Aliases that would collide with the service's own routes (`/api`, `/app`, `/docs`, `/health`, `/metrics`) or with the paths
 * browsers and crawlers ask every host for. Compared without regard to case.
 */
export const RESERVED_ALIASES: ReadonlySet<string> = new Set([
  'api',
  'app',
  'docs',
  'docs-json',
  'health',
  'metrics',
  'assets',
  'static',
  'favicon',
  'robots',
  'sitemap',
  'well-known',
  '_next',
]);

export function isReservedAlias(alias: string): boolean {
  return RESERVED_ALIASES.has(alias.toLowerCase());
}
