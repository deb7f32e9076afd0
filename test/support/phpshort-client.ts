/**
 * A phpShort v1 API client written from phpShort's developer pages alone, as a user switching over would have
 * one: every request sends `Authorization: Bearer <key>` and `Accept: application/json`; create and update send
 * `Content-Type: application/x-www-form-urlencoded` with bracket notation (`pixel_ids[]`, `targets[0][key]`);
 * nothing else. It knows this service only by its base URL.
 */

export type FormValue = string | number | FormValue[] | { [key: string]: FormValue };
export type Fields = Record<string, FormValue>;
export type Query = Record<string, string | number>;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One value of a stats answer and its clicks. */
export interface StatsRow {
  value: string | null;
  count: number;
}

export interface Answer {
  status: number;
  // What a JSON client gets: whatever the body parses to.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A form as PHP's http_build_query writes it: arrays of values as `a[]`, nested arrays and maps as `a[0][key]`. */
export function bracketForm(fields: Fields): string {
  const pairs = (name: string, value: FormValue): [string, string][] => {
    if (Array.isArray(value)) {
      return value.flatMap((item, index) =>
        typeof item === 'object' ? pairs(`${name}[${index}]`, item) : pairs(`${name}[]`, item),
      );
    }
    if (typeof value === 'object') {
      return Object.entries(value).flatMap(([key, item]) => pairs(`${name}[${key}]`, item));
    }
    return [[name, String(value)]];
  };
  return new URLSearchParams(
    Object.entries(fields).flatMap(([name, value]) => pairs(name, value)),
  ).toString();
}

/** The five calls of each resource, as the developer pages list them. */
export interface Resource {
  list(query?: Query): Promise<Answer>;
  show(id: number): Promise<Answer>;
  store(fields: Fields): Promise<Answer>;
  update(id: number, fields: Fields): Promise<Answer>;
  delete(id: number): Promise<Answer>;
}

export class PhpShortClient {
  readonly spaces = this.resource('spaces');
  readonly links = this.resource('links');
  readonly domains = this.resource('domains');
  readonly pixels = this.resource('pixels');

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /**
   * `GET /api/v1/stats/{id}`: `name`, `from`, `to`, and optionally `search`, `search_by`, `sort_by`, `sort`, and
   * for a dimension `per_page` and `page`.
   */
  stats(linkId: number, query: Query): Promise<Answer> {
    return this.request('GET', `stats/${linkId}`, { query });
  }

  /**
   * Every row of a stats answer, as a client of phpShort's paginated answers reads them: the first page, then
   * each `links.next` in turn until there is none. Clicks over time come whole, with no `links`.
   */
  async allStats(linkId: number, query: Query): Promise<{ pages: Answer[]; rows: StatsRow[] }> {
    const pages = [await this.stats(linkId, query)];
    let next = pages[0].body?.links?.next as string | null | undefined;
    while (typeof next === 'string') {
      const page = await this.send('GET', new URL(next));
      pages.push(page);
      next = page.body?.links?.next as string | null | undefined;
    }
    return { pages, rows: pages.flatMap((page) => page.body.data as StatsRow[]) };
  }

  account(): Promise<Answer> {
    return this.request('GET', 'account');
  }

  request(method: Method, path: string, options: { query?: Query; form?: Fields } = {}): Promise<Answer> {
    const url = new URL(`${this.baseUrl}/api/v1/${path}`);
    for (const [name, value] of Object.entries(options.query ?? {}))
      url.searchParams.set(name, String(value));
    return this.send(method, url, options.form);
  }

  private async send(method: Method, url: URL, form?: Fields): Promise<Answer> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: 'application/json',
    };
    if (form !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method,
      headers,
      body: form === undefined ? undefined : bracketForm(form),
    });
    return { status: response.status, body: await response.json() };
  }

  private resource(name: string): Resource {
    return {
      list: (query = {}) => this.request('GET', name, { query }),
      show: (id) => this.request('GET', `${name}/${id}`),
      store: (fields) => this.request('POST', name, { form: fields }),
      update: (id, fields) => this.request('PUT', `${name}/${id}`, { form: fields }),
      delete: (id) => this.request('DELETE', `${name}/${id}`),
    };
  }
}
