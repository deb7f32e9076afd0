import { isoDate } from '../common/dates';
import type { Domain } from './domain.entity';

export interface DomainResponse {
  id: number;
  name: string;
  url: string;
  index_page: string | null;
  not_found_page: string | null;
  created_at: string;
  updated_at: string;
}

/** The short form a link shows of its domain. */
export interface DomainSummary {
  id: number;
  name: string;
  url: string;
}

/** A domain's base URL: the scheme of APP_URL (https in production), then the host. */
export function domainUrl(domain: Domain, scheme: string): string {
  return `${scheme}//${domain.name}`;
}

/** A link's short URL on a domain. */
export function shortUrl(domain: Domain, scheme: string, alias: string): string {
  return `${domainUrl(domain, scheme)}/${alias}`;
}

export function toDomainResponse(domain: Domain, scheme: string): DomainResponse {
  return {
    id: domain.id,
    name: domain.name,
    url: domainUrl(domain, scheme),
    index_page: domain.indexPage,
    not_found_page: domain.notFoundPage,
    created_at: isoDate(domain.createdAt),
    updated_at: isoDate(domain.updatedAt),
  };
}

export function toDomainSummary(domain: Domain, scheme: string): DomainSummary {
  return { id: domain.id, name: domain.name, url: domainUrl(domain, scheme) };
}
