import { ResourceNotFoundException } from './exceptions';
import { mapPage, type Page } from './pagination';

/** What a repository of one resource gives {@link Resources}: a page of the caller's rows, and one of them. */
export interface ResourceRows<Row, Query, Caller> {
  list(caller: Caller, query: Query): Promise<Page<Row>>;
  /** The caller's row of that id, `counted` with what the API shows beside it; null beyond its reach. */
  findOwned(caller: Caller, id: number, counted?: boolean): Promise<Row | null>;
}

/**
 * The reads every resource of an account answers alike: a page, one row as the API shows it, and one row or a
 * 404, whether it does not exist, is another account's or beyond the caller's reach. A service adds its writes.
 */
export abstract class Resources<Row, Response, Query, Caller> {
  protected constructor(
    private readonly rows: ResourceRows<Row, Query, Caller>,
    private readonly respond: (row: Row) => Response,
  ) {}

  async list(caller: Caller, query: Query): Promise<Page<Response>> {
    return mapPage(await this.rows.list(caller, query), this.respond);
  }

  async show(caller: Caller, id: number): Promise<Response> {
    return this.respond(await this.find(caller, id, true));
  }

  async find(caller: Caller, id: number, counted = false): Promise<Row> {
    const row = await this.rows.findOwned(caller, id, counted);
    if (row === null) throw new ResourceNotFoundException();
    return row;
  }
}
