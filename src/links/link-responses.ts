import { Injectable } from '@nestjs/common';
import type { Domain } from '../domains/domain.entity';
import { toDomainSummary } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import type { Pixel } from '../pixels/pixel.entity';
import { toPixelResponse } from '../pixels/pixel.mapper';
import { SpacesService } from '../spaces/spaces.service';
import { TagsService } from '../tags/tags.service';
import { LinkPixels } from './link-pixels';
import { countersOf, type Link } from './link.entity';
import { toLinkResponse, UNCHECKED, type LinkResponse } from './link.mapper';
import { LinkHealthRepository } from './health/link-health.repository';
import { LinksRepository } from './links.repository';

/** A link just inserted, with what its create looked up. */
export interface NewLinkParts {
  link: Link;
  domain: Domain;
  /** Its pixels, in id order. */
  pixels: Pixel[];
  /** Its tags' names, in the order given. */
  tags: string[];
}

/** The counters of a link no one has visited yet, as the insert's trigger makes them. */
const NEW_COUNTER = { clicks: 0, lastRotation: null };

/** Responses for links, with their domain, space and pixels read in one query each, whatever the number. */
@Injectable()
export class LinkResponses {
  constructor(
    private readonly links: LinksRepository,
    private readonly domains: DomainsService,
    private readonly spaces: SpacesService,
    private readonly pixels: LinkPixels,
    private readonly tags: TagsService,
    private readonly health: LinkHealthRepository,
  ) {}

  /**
   * Responses for the account's links with these ids, read with their counters, in the order of `ids`. A link
   * deleted meanwhile is left out rather than shown half.
   */
  async ofIds(accountId: number, ids: number[]): Promise<LinkResponse[]> {
    if (ids.length === 0) return [];
    const rows = await this.links.findByIds(accountId, ids);
    const byId = new Map(rows.map((link) => [link.id, link]));
    return this.of(
      accountId,
      ids.flatMap((id) => byId.get(id) ?? []),
    );
  }

  /**
   * Responses for links just created, from what the create wrote and looked up rather than read back: only their
   * spaces are read, for the links they hold now.
   */
  async ofNew(accountId: number, created: NewLinkParts[]): Promise<LinkResponse[]> {
    const spaceIds = [
      ...new Set(created.flatMap(({ link }) => (link.spaceId === null ? [] : [link.spaceId]))),
    ];
    const spaces = await this.spaces.responsesByIds(accountId, spaceIds);
    return created.map(({ link, domain, pixels, tags }) =>
      toLinkResponse(link, {
        counter: NEW_COUNTER,
        domain: toDomainSummary(domain, this.domains.scheme),
        space: link.spaceId === null ? null : (spaces.get(link.spaceId) ?? null),
        pixels: pixels.map(toPixelResponse),
        tags,
        health: UNCHECKED,
      }),
    );
  }

  async of(accountId: number, links: Link[]): Promise<LinkResponse[]> {
    if (links.length === 0) return [];
    const spaceIds = [...new Set(links.flatMap((link) => (link.spaceId === null ? [] : [link.spaceId])))];
    const linkIds = links.map((link) => link.id);
    const [domains, spaces, pixels, tags, health] = await Promise.all([
      this.domains.findByIds([...new Set(links.map((link) => link.domainId))]),
      this.spaces.responsesByIds(accountId, spaceIds),
      this.pixels.byLink(linkIds),
      this.tags.namesByLink(linkIds),
      this.health.healthOf(linkIds),
    ]);
    return links.map((link) =>
      toLinkResponse(link, {
        counter: countersOf(link),
        domain: toDomainSummary(domains.get(link.domainId)!, this.domains.scheme),
        space: link.spaceId === null ? null : (spaces.get(link.spaceId) ?? null),
        pixels: pixels.get(link.id) ?? [],
        tags: tags.get(link.id) ?? [],
        health: health.get(link.id) ?? UNCHECKED,
      }),
    );
  }
}
