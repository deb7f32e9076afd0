import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { toDomainSummary } from '../domains/domain.mapper';
import { DomainsService } from '../domains/domains.service';
import { SpacesService } from '../spaces/spaces.service';
import { countersOf } from './link-counter.entity';
import { LinkPixels } from './link-pixels';
import { Link } from './link.entity';
import { toLinkResponse, type LinkResponse } from './link.mapper';

/** Responses for links, with their domain, space and pixels read in one query each, whatever the number. */
@Injectable()
export class LinkResponses {
  constructor(
    @InjectRepository(Link) private readonly links: Repository<Link>,
    private readonly domains: DomainsService,
    private readonly spaces: SpacesService,
    private readonly pixels: LinkPixels,
  ) {}

  /**
   * Responses for the account's links with these ids, read with their counters, in the order of `ids`. A link
   * deleted meanwhile is left out rather than shown half.
   */
  async ofIds(accountId: number, ids: number[]): Promise<LinkResponse[]> {
    if (ids.length === 0) return [];
    const rows = await this.links.find({ where: { accountId, id: In(ids) }, relations: { counter: true } });
    const byId = new Map(rows.map((link) => [link.id, link]));
    return this.of(
      accountId,
      ids.flatMap((id) => byId.get(id) ?? []),
    );
  }

  async of(accountId: number, links: Link[]): Promise<LinkResponse[]> {
    if (links.length === 0) return [];
    const spaceIds = [...new Set(links.flatMap((link) => (link.spaceId === null ? [] : [link.spaceId])))];
    const [domains, spaces, pixels] = await Promise.all([
      this.domains.findByIds([...new Set(links.map((link) => link.domainId))]),
      this.spaces.responsesByIds(accountId, spaceIds),
      this.pixels.byLink(links.map((link) => link.id)),
    ]);
    return links.map((link) =>
      toLinkResponse(link, {
        counter: countersOf(link),
        domain: toDomainSummary(domains.get(link.domainId)!, this.domains.scheme),
        space: link.spaceId === null ? null : (spaces.get(link.spaceId) ?? null),
        pixels: pixels.get(link.id) ?? [],
      }),
    );
  }
}
