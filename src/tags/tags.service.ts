import { Inject, Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import { ResourceNotFoundException, UnauthorizedActionException } from '../common/exceptions';
import { Resources } from '../common/resources';
import { quotasConfig, type QuotasConfig } from '../config/app-config';
import type { Transaction } from '../database/transactions';
import type { TagListQueryDto } from './dto/tag-list-query.dto';
import type { CreateTagDto, UpdateTagDto } from './dto/tag.dto';
import { DEFAULT_TAG_COLOR, type Tag } from './tag.entity';
import { toTagResponse, type TagResponse } from './tag.mapper';
import { TagsRepository, type TagName } from './tags.repository';

export { distinctNames } from './tags.repository';

/**
 * A workspace's tags: their own list and colours, and what links do with them (named by name, made when new,
 * matched regardless of case).
 */
@Injectable()
export class TagsService extends Resources<Tag, TagResponse, TagListQueryDto, Owner> {
  constructor(
    private readonly tags: TagsRepository,
    @Inject(quotasConfig.KEY) private readonly quotas: QuotasConfig,
  ) {
    super(tags, toTagResponse);
  }

  /**
   * A key restricted to spaces names tags on its links, but does not make, rename or delete them for the whole
   * workspace, as it makes no spaces.
   */
  async create(owner: Owner, dto: CreateTagDto): Promise<TagResponse> {
    if (owner.spaceIds !== null) throw new UnauthorizedActionException();
    const tag = await this.tags.createWithinQuota(
      { accountId: owner.accountId, name: dto.name, color: dto.color ?? DEFAULT_TAG_COLOR },
      this.quotas.maxTagsPerAccount,
    );
    return this.show(owner, tag.id);
  }

  async update(owner: Owner, id: number, dto: UpdateTagDto): Promise<TagResponse> {
    const tag = await this.editable(owner, id);
    if (dto.name !== undefined) tag.name = dto.name;
    if (dto.color !== undefined) tag.color = dto.color;
    await this.tags.save(tag);
    return this.show(owner, id);
  }

  async remove(owner: Owner, id: number): Promise<void> {
    const tag = await this.editable(owner, id);
    if (!(await this.tags.delete(owner.accountId, tag.id))) throw new ResourceNotFoundException();
  }

  /**
   * Each link's tags become exactly the tags of its `names`, in that order, in `tx`: names the workspace has no tag
   * of make one (within its quota, a refusal naming `field`). Returns each link's names as the workspace first
   * wrote them, by link id.
   */
  async tagLinks(
    tx: Transaction,
    accountId: number,
    links: { linkId: number; names: string[] }[],
    field: string,
  ): Promise<Map<number, string[]>> {
    const names = links.flatMap((link) => link.names);
    let byName = new Map<string, TagName>();
    if (names.length > 0) {
      byName = await this.tags.ensure(tx, accountId, names);
      await this.tags.checkTagQuota(tx, this.quotas.maxTagsPerAccount, accountId, field);
    }
    const tagsOf = (link: { names: string[] }) => link.names.map((name) => byName.get(name.toLowerCase())!);
    await this.tags.replace(
      tx,
      links.map((link) => ({ linkId: link.linkId, tagIds: tagsOf(link).map((tag) => tag.id) })),
    );
    return new Map(links.map((link) => [link.linkId, tagsOf(link).map((tag) => tag.name)]));
  }

  /** The names of each link's tags, by link id, in the order given. */
  namesByLink(linkIds: number[]): Promise<Map<number, string[]>> {
    return this.tags.namesByLink(linkIds);
  }

  /** The ids of the workspace's tags of these names, regardless of case (for a filter). */
  idsByNames(accountId: number, names: string[]): Promise<number[]> {
    return names.length === 0 ? Promise.resolve([]) : this.tags.idsByNames(accountId, names);
  }

  /** One of the workspace's tags, for a change: 404 when none, 403 for a key restricted to spaces. */
  private async editable(owner: Owner, id: number): Promise<Tag> {
    const tag = await this.find(owner, id);
    if (owner.spaceIds !== null) throw new UnauthorizedActionException();
    return tag;
  }
}
