import type { Domain } from '../domains/domain.entity';
import type { Link } from './link.entity';

/** A link found by its alias at a domain, as the pages that read all of it (its stats page) hold it. */
export interface ResolvedLink {
  domain: Domain;
  link: Link;
  hasPixels: boolean;
}
