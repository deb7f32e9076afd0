import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PeriodicTask } from '../common/periodic-task';
import { importsConfig, type ImportsConfig } from '../config/app-config';
import { ReferenceRefused, ReferenceServices, WorkspaceReferences } from './import-references';
import { ImportPageWriter, ImportStopped } from './import-page';
import { ImportSources } from './import-sources';
import { MAX_IMPORT_ERRORS, type ImportError } from './import-job.entity';
import { ImportsRepository, type ClaimedImport } from './imports.repository';
import { SourceError, type ImportSource, type SourcePage } from './sources/source';

/** The workspaces whose imports this instance's runner takes: every one (null) in production. */
export interface ImportRunnerScope {
  accountIds(): readonly number[] | null;
}

export const IMPORT_RUNNER_SCOPE = Symbol('IMPORT_RUNNER_SCOPE');

export const EVERY_WORKSPACE: ImportRunnerScope = { accountIds: () => null };

/** How often a runner looks for an import to run when none woke it. */
const POLL_MS = 5_000;

/**
 * Runs imports in the background, one at a time on each instance and one at a time in each workspace: claims the
 * next (or one whose runner died), reads its source page by page from where it stood, writes each page whole, and
 * ends it `done`, `failed` (with the reason) or finds it `cancelled`. A shutdown stops between two pages and hands
 * the import back for the next start to go on with.
 */
@Injectable()
export class ImportRunner extends PeriodicTask {
  private readonly stopping = new AbortController();

  constructor(
    private readonly repository: ImportsRepository,
    private readonly sources: ImportSources,
    private readonly writer: ImportPageWriter,
    private readonly references: ReferenceServices,
    @Inject(importsConfig.KEY) private readonly config: ImportsConfig,
    @Inject(IMPORT_RUNNER_SCOPE) private readonly scope: ImportRunnerScope,
  ) {
    super({ everyMs: POLL_MS, failure: 'Imports not run this round' });
  }

  override async onApplicationBootstrap(): Promise<void> {
    // An instance that runs no imports leaves them to those that do (IMPORT_RUNNER=false).
    if (this.config.importRunner) await super.onApplicationBootstrap();
  }

  override async beforeApplicationShutdown(): Promise<void> {
    // The import under way stops between two pages.
    this.stopping.abort();
    await super.beforeApplicationShutdown();
  }

  /**
   * Runs this import now, in this process, unless another instance holds it or its workspace runs another: the
   * CLI's way, which runs the import it started whatever the instance settings say. True when it was run here.
   */
  async runNow(id: number): Promise<boolean> {
    const claimed = await this.repository.claim(this.config.importLeaseMs, randomUUID(), {
      accountIds: null,
      importId: id,
    });
    if (claimed === null) return false;
    await this.run(claimed);
    return true;
  }

  /** Looks for work now (a new import was queued), or once the round under way ends. */
  wake(): void {
    if (this.config.importRunner) void this.runRound();
  }

  /** A round: runs claimed imports until none waits. */
  protected async round(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const claimed = await this.repository.claim(this.config.importLeaseMs, randomUUID(), {
        accountIds: this.scope.accountIds(),
      });
      if (claimed === null) return;
      await this.run(claimed);
    }
  }

  private async run(claimed: ClaimedImport): Promise<void> {
    const { job, token } = claimed;
    let errors: ImportError[] = job.errors;
    const addErrors = (added: ImportError[]) => {
      errors = [...errors, ...added].slice(0, MAX_IMPORT_ERRORS);
      return errors;
    };
    const cancelled = new AbortController();
    const onStop = () => cancelled.abort();
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    // The lease is renewed while a page is read, and a cancel is noticed then too.
    const heartbeat = setInterval(() => {
      void this.repository.renew(job.id, token, this.config.importLeaseMs).then(
        (held) => (held ? undefined : cancelled.abort()),
        () => undefined,
      );
    }, this.config.importLeaseMs / 4);
    let source: ImportSource | null = null;
    try {
      source = this.sources.open(job, claimed.credentials, this.config, cancelled.signal);
      const summary = await source.open();
      const references = new WorkspaceReferences(job.accountId, job.dryRun, this.references);
      const context = { job, token, references, leaseMs: this.config.importLeaseMs, errors: addErrors };
      if (job.cursor === null) await this.bringReferences(references, summary, addErrors);
      let cursor = job.cursor;
      const bounds = new PageBounds(summary.linksTotal, job.linksDone);
      do {
        const page = await source.page(cursor);
        bounds.check(cursor, page);
        await this.writer.write(context, page, summary.linksTotal);
        cursor = page.next;
      } while (cursor !== null && !cancelled.signal.aborted);
      if (cursor !== null) return this.handBack(job.id, token);
      await this.repository.finish(job.id, token, 'done', errors);
    } catch (error) {
      if (error instanceof ImportStopped) return;
      if (this.stopping.signal.aborted) return this.handBack(job.id, token);
      if (cancelled.signal.aborted) return;
      // A source's failure is said as it is; anything else is logged here and reported without its details.
      const message = error instanceof SourceError ? error.message : 'the import failed on an internal error';
      if (!(error instanceof SourceError)) this.logger.error(`import ${job.id}: ${describe(error)}`);
      await this.repository.finish(job.id, token, 'failed', addErrors([{ item: 'source', message }]));
    } finally {
      clearInterval(heartbeat);
      this.stopping.signal.removeEventListener('abort', onStop);
      await source?.close().catch(() => undefined);
    }
  }

  /** Spaces, domains and pixels the source holds, links or not, brought before the first page. */
  private async bringReferences(
    references: WorkspaceReferences,
    summary: Awaited<ReturnType<ImportSource['open']>>,
    addErrors: (added: ImportError[]) => ImportError[],
  ): Promise<void> {
    const refusals: ImportError[] = [];
    const bring = async (item: string, make: () => Promise<number>) => {
      try {
        await make();
      } catch (error) {
        if (!(error instanceof ReferenceRefused)) throw error;
        refusals.push({ item, message: error.message });
      }
    };
    for (const space of summary.spaces) await bring(`space ${space.name}`, () => references.space(space));
    for (const domain of summary.domains)
      await bring(`domain ${domain.name}`, () => references.domain(domain));
    for (const pixel of summary.pixels) await bring(`pixel ${pixel.name}`, () => references.pixel(pixel));
    addErrors(refusals);
  }

  /** Gives the import back at once, for the next start (or another instance) to go on from its last page. */
  private async handBack(id: number, token: string): Promise<void> {
    await this.repository.release(id, token);
  }
}

/** Empty pages in a row after which a source that still names a next page is taken for one that never ends. */
const MAX_EMPTY_PAGES = 3;
/** Links past what a source said it holds (a tenth more, and this many) before its pages are taken for endless. */
const LINKS_BEYOND_TOTAL = 1000;

/**
 * What keeps a source from holding an import forever: pages that name themselves as the next, pages without
 * links that still promise more, and far more links than the source said it holds.
 */
export class PageBounds {
  private emptyPages = 0;
  private links: number;

  constructor(
    private readonly total: number | null,
    alreadyRead: number,
  ) {
    this.links = alreadyRead;
  }

  check(cursor: string | null, page: SourcePage): void {
    if (page.next !== null && page.next === cursor) {
      throw new SourceError('the source answered the same page again as the next one');
    }
    this.emptyPages = page.links.length === 0 ? this.emptyPages + 1 : 0;
    if (page.next !== null && this.emptyPages >= MAX_EMPTY_PAGES) {
      throw new SourceError(
        `the source answered ${MAX_EMPTY_PAGES} empty pages in a row and still named a next one`,
      );
    }
    this.links += page.links.length;
    if (this.total !== null && this.links > Math.ceil(this.total * 1.1) + LINKS_BEYOND_TOTAL) {
      throw new SourceError(`the source's pages go on past the ${this.total} links it said it holds`);
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
