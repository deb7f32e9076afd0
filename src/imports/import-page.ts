import { MAX_LINK_TAGS, MAX_TAG_NAME } from '../tags/tag.entity';
import { distinctNames } from '../tags/tags.service';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { wholeAccount, type Owner } from '../auth/owner';
import { ValidationFailedException, type FieldErrors } from '../common/exceptions';
import { validateItems } from '../common/validation.pipe';
import type { Transaction } from '../database/transactions';
import { DomainsService } from '../domains/domains.service';
import { CreateLinkDto, UpdateLinkDto } from '../links/dto/link.dto';
import { LinksService } from '../links/links.service';
import { ReferenceRefused, type WorkspaceReferences } from './import-references';
import { ImportsRepository, type LinkHistory, type PageProgress } from './imports.repository';
import { type ImportError, type ImportJob } from './import-job.entity';
import type { SourceLink, SourcePage } from './sources/source';

/** The page's write was refused because the import is no longer this runner's (cancelled, or taken over). */
export class ImportStopped extends Error {}

/** What becomes of one source link. */
type Plan =
  | { kind: 'create'; link: SourceLink; dto: CreateLinkDto }
  | { kind: 'update'; link: SourceLink; dto: CreateLinkDto; linkId: number; history: boolean }
  | { kind: 'skip'; link: SourceLink }
  | { kind: 'fail'; link: SourceLink; message: string };

/** The import a page belongs to, as the writer needs it. */
export interface PageContext {
  job: ImportJob;
  token: string;
  references: WorkspaceReferences;
  leaseMs: number;
  /** Adds errors to the import's, keeping the first hundred. */
  errors: (added: ImportError[]) => ImportError[];
}

/** Suffixes tried for a taken alias (`alias-2` ... `alias-50`) before the link fails. */
const MAX_SUFFIX = 50;
/** Rounds of creating a page when the create refuses some links (an alias taken meanwhile): the rest go again. */
const MAX_CREATE_ROUNDS = 3;

function itemOf(link: SourceLink): string {
  return typeof link.fields.alias === 'string' && link.fields.alias !== ''
    ? link.fields.alias
    : `link ${link.sourceId}`;
}

function firstReason(errors: FieldErrors): string {
  const [field, reasons] = Object.entries(errors)[0];
  return `${field}: ${reasons[0]}`;
}

/**
 * Writes one page of a source into the workspace: each link checked as the API checks a create, its spaces,
 * pixels and domain found or made, a taken alias handled as `on_conflict` says, and then, in one transaction,
 * the new links, the record of where each came from, their click history and the import's progress: a page is
 * written whole or not at all, so a restart goes on from the last page written without a duplicate or a gap.
 */
@Injectable()
export class ImportPageWriter {
  constructor(
    private readonly links: LinksService,
    private readonly domains: DomainsService,
    private readonly repository: ImportsRepository,
  ) {}

  async write(context: PageContext, page: SourcePage, linksTotal: number | null): Promise<PageProgress> {
    const { job } = context;
    const plans = await this.plan(context, page.links);
    const failures: ImportError[] = [...page.errors];
    const progress: PageProgress = {
      cursor: page.next,
      linksTotal,
      done: page.links.length,
      created: 0,
      updated: 0,
      skipped: plans.filter((plan) => plan.kind === 'skip').length,
      failed: 0,
      clicks: 0,
      errors: [],
    };
    const fail = (link: SourceLink, message: string) => {
      progress.failed += 1;
      failures.push({ item: itemOf(link), message });
    };
    for (const plan of plans) {
      if (plan.kind === 'fail') fail(plan.link, plan.message);
      else if (plan.kind !== 'skip') failures.push(...secretNotes(plan.link));
    }
    let creates = plans.filter((plan) => plan.kind === 'create');
    const updates = plans.filter((plan) => plan.kind === 'update');
    if (job.dryRun) {
      progress.created = creates.length;
      progress.updated = updates.length;
      progress.clicks = [...creates, ...updates].reduce((sum, plan) => sum + plan.link.clicks, 0);
      progress.errors = context.errors(failures);
      await this.advance(null, context, progress);
      return progress;
    }
    const owner = wholeAccount(job.accountId);
    for (const plan of updates) {
      try {
        progress.clicks += await this.update(owner, context, plan);
        progress.updated += 1;
      } catch (error) {
        if (!(error instanceof ValidationFailedException)) throw error;
        fail(plan.link, firstReason(error.fields));
      }
    }
    for (let round = 1; ; round += 1) {
      try {
        progress.errors = context.errors(failures);
        const clicks = await this.create(owner, context, creates, progress);
        progress.created += creates.length;
        progress.clicks += clicks;
        return progress;
      } catch (error) {
        if (!(error instanceof ValidationFailedException) || round >= MAX_CREATE_ROUNDS) throw error;
        const refused = refusedItems(error.fields, creates.length);
        for (const [index, message] of refused) fail(creates[index].link, message);
        creates = creates.filter((_plan, index) => !refused.has(index));
      }
    }
  }

  /** What becomes of each link: checked, its references resolved, its alias weighed against those taken. */
  private async plan(context: PageContext, links: SourceLink[]): Promise<Plan[]> {
    const { job } = context;
    const bodies: (Record<string, unknown> | string)[] = [];
    for (const link of links) bodies.push(await this.body(context, link));
    // Only the bodies whose references resolved are checked: the others have failed already.
    const whole = bodies.flatMap((body, index) => (typeof body === 'string' ? [] : [{ body, index }]));
    const results = await validateItems(
      CreateLinkDto,
      whole.map(({ body }) => body),
    );
    const checked = new Map(whole.map(({ index }, at) => [index, results[at]]));
    const imported = await this.repository.importedLinks(
      job.accountId,
      job.sourceOrigin,
      links.map((link) => link.sourceId),
    );
    const defaultDomainId = (await this.domains.defaultDomain()).id;
    const plans: Plan[] = links.map((link, index) => {
      const body = bodies[index];
      if (typeof body === 'string') return { kind: 'fail', link, message: body };
      const result = checked.get(index)!;
      if (Object.keys(result.errors).length > 0) {
        return { kind: 'fail', link, message: firstReason(result.errors) };
      }
      const dto = result.value;
      const linkId = imported.get(link.sourceId);
      if (linkId === undefined) return { kind: 'create', link, dto };
      // Imported before: brought up to date, or left; its history came with it then.
      return job.onConflict === 'update'
        ? { kind: 'update', link, dto, linkId, history: false }
        : { kind: 'skip', link };
    });
    await this.weighAliases(context, plans, defaultDomainId);
    return plans;
  }

  /** The create body of a link, its references as ids; a string when a reference was refused. */
  private async body(context: PageContext, link: SourceLink): Promise<Record<string, unknown> | string> {
    try {
      const body: Record<string, unknown> = { ...link.fields };
      if (link.domain !== null) body.domain_id = await context.references.domain(link.domain);
      if (link.space !== null) body.space_id = await context.references.space(link.space);
      const pixelIds: number[] = [];
      for (const pixel of link.pixels) pixelIds.push(await context.references.pixel(pixel));
      if (pixelIds.length > 0) body.pixel_ids = pixelIds;
      const tags = tagsOf(link);
      if (tags.length > 0) body.tags = tags;
      // A protected link stays protected: the source never gives its secret out, so it gets one nobody knows.
      for (const secret of link.unreadableSecrets) body[secret] = randomBytes(24).toString('base64url');
      // A dry run's references that would be made have no id yet: checked as the default domain and no space.
      if (body.domain_id === 0) delete body.domain_id;
      if (body.space_id === 0) delete body.space_id;
      if (pixelIds.includes(0)) delete body.pixel_ids;
      return body;
    } catch (error) {
      if (error instanceof ReferenceRefused) return error.message;
      throw error;
    }
  }

  /**
   * Links to create whose alias is taken on their domain: left (`skip`), given the first free `alias-N`
   * (`suffix`), or made to match the source (`update`, for a link of this workspace; another's is left).
   */
  private async weighAliases(context: PageContext, plans: Plan[], defaultDomainId: number): Promise<void> {
    const domainOf = (dto: CreateLinkDto) => dto.domain_id ?? dto.domain ?? defaultDomainId;
    const wanted = plans.flatMap((plan, index) =>
      plan.kind === 'create' && typeof plan.dto.alias === 'string'
        ? [{ index, domainId: domainOf(plan.dto), alias: plan.dto.alias }]
        : [],
    );
    const taken = new Map(
      (await this.repository.takenAliases(wanted)).map((row) => [
        `${row.domain_id}/${row.alias.toLowerCase()}`,
        row,
      ]),
    );
    for (const { index, domainId, alias } of wanted) {
      const holder = taken.get(`${domainId}/${alias.toLowerCase()}`);
      const plan = plans[index];
      if (holder === undefined || plan.kind !== 'create') continue;
      const mine = holder.account_id === context.job.accountId;
      if (context.job.onConflict === 'update' && mine) {
        plans[index] = { kind: 'update', link: plan.link, dto: plan.dto, linkId: holder.id, history: true };
      } else if (context.job.onConflict === 'suffix') {
        const free = await this.freeAlias(domainId, alias);
        if (free === null) plans[index] = { kind: 'fail', link: plan.link, message: 'alias: no free suffix' };
        else plan.dto.alias = free;
      } else {
        plans[index] = { kind: 'skip', link: plan.link };
      }
    }
  }

  private async freeAlias(domainId: number, alias: string): Promise<string | null> {
    const candidates = Array.from({ length: MAX_SUFFIX - 1 }, (_, index) => `${alias}-${index + 2}`);
    const taken = new Set(
      (
        await this.repository.takenAliases(candidates.map((candidate) => ({ domainId, alias: candidate })))
      ).map((row) => row.alias.toLowerCase()),
    );
    return candidates.find((candidate) => !taken.has(candidate.toLowerCase())) ?? null;
  }

  /** A link brought up to date with the source; its history added the first time the import meets it. */
  private async update(
    owner: Owner,
    context: PageContext,
    plan: Extract<Plan, { kind: 'update' }>,
  ): Promise<number> {
    const { domain_id: _domainId, domain: _domain, ...fields } = plan.dto;
    const [{ value, errors }] = await validateItems(UpdateLinkDto, [fields]);
    if (Object.keys(errors).length > 0) throw new ValidationFailedException(errors);
    await this.links.update(owner, plan.linkId, value);
    if (!plan.history) return 0;
    return this.repository.within(async (tx) => {
      await this.repository.recordLinks(tx, context.job.accountId, context.job.sourceOrigin, [
        { sourceId: plan.link.sourceId, linkId: plan.linkId, tags: plan.link.tags },
      ]);
      return this.repository.addHistory(tx, [historyOf(plan.link, plan.linkId, false)]);
    });
  }

  /** The page's new links, their records, their history and the import's progress, in one transaction. */
  private async create(
    owner: Owner,
    context: PageContext,
    creates: Extract<Plan, { kind: 'create' }>[],
    progress: PageProgress,
  ): Promise<number> {
    const { job } = context;
    if (creates.length === 0) {
      await this.advance(null, context, progress);
      return 0;
    }
    let clicks = 0;
    await this.links.createImported(
      owner,
      creates.map((plan) => plan.dto),
      (index) => `${index}.`,
      async (tx, links) => {
        await this.repository.recordLinks(
          tx,
          job.accountId,
          job.sourceOrigin,
          links.map((link, index) => ({
            sourceId: creates[index].link.sourceId,
            linkId: link.id,
            tags: creates[index].link.tags,
          })),
        );
        clicks = await this.repository.addHistory(
          tx,
          links.map((link, index) => historyOf(creates[index].link, link.id, true)),
        );
        await this.advance(tx, context, {
          ...progress,
          created: progress.created + creates.length,
          clicks: progress.clicks + clicks,
        });
      },
    );
    return clicks;
  }

  private async advance(tx: Transaction | null, context: PageContext, progress: PageProgress): Promise<void> {
    const advanced = await this.repository.advance(
      tx,
      context.job.id,
      context.token,
      progress,
      context.leaseMs,
    );
    if (!advanced) throw new ImportStopped();
  }
}

/**
 * The source's tags as this service keeps them: each name within 50 characters, the first 20 names without repeats
 * (a source that allows more keeps the rest in the import's record of the link).
 */
function tagsOf(link: SourceLink): string[] {
  const names = link.tags
    .map((name) => [...name.trim()].slice(0, MAX_TAG_NAME).join(''))
    .filter((name) => name !== '');
  return distinctNames(names).slice(0, MAX_LINK_TAGS);
}

function historyOf(link: SourceLink, linkId: number, created: boolean): LinkHistory {
  return { linkId, clicks: link.clicks, createdAt: created ? link.createdAt : null, history: link.history };
}

/** The notes of a link whose secrets could not be read: it was given secrets nobody knows. */
function secretNotes(link: SourceLink): ImportError[] {
  return link.unreadableSecrets.map((secret) => ({
    item: itemOf(link),
    message: `${secret}: the source does not give it out; the link got one nobody knows, set a new one`,
  }));
}

/**
 * The items a create refused, by their index (`3.alias`), with the first reason of each; a refusal of the whole
 * (the links quota) refuses them all.
 */
function refusedItems(fields: FieldErrors, count: number): Map<number, string> {
  const refused = new Map<number, string>();
  for (const [field, reasons] of Object.entries(fields)) {
    const match = /^(\d+)\.(.*)$/.exec(field);
    if (match === null) {
      for (let index = 0; index < count; index += 1)
        if (!refused.has(index)) refused.set(index, `${field}: ${reasons[0]}`);
    } else if (!refused.has(Number(match[1]))) {
      refused.set(Number(match[1]), `${match[2]}: ${reasons[0]}`);
    }
  }
  return refused;
}
