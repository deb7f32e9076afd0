import { Injectable } from '@nestjs/common';
import { isoDate } from '../common/dates';
import { LinkResponses } from '../links/link-responses';
import type { EventType, OutgoingEvent } from './outbox/event';
import { EventsRepository, type ClickParts, type EventRow, type OutgoingRow } from './events.repository';

/**
 * The characters of bodies remembered, at most: an event goes to several sinks, usually within the same second, and
 * a click event's body is some 250 KB.
 */
const BODY_MEMO_CHARS = 16_000_000;

/**
 * The bodies of events, built once for every sink that takes them: the event's own data, or for `link.clicked`
 * its clicks as the outbox query writes them (each with its link's alias, and what the click export shows of its
 * visitor).
 */
@Injectable()
export class EventPayloads {
  private readonly bodies = new Map<string, OutgoingEvent>();
  private memoChars = 0;
  /** The reads under way, by the ids each reads. */
  private readonly reading = new Map<string, Promise<Map<string, OutgoingEvent>>>();

  constructor(
    private readonly repository: EventsRepository,
    private readonly responses: LinkResponses,
  ) {}

  /**
   * The data of events written without it: each link as the API shows it now (a `link.limit_reached` is built as
   * soon as it is sent; a change's data is its own request's, unless a crash came between). A link deleted since
   * is `{"id": ...}` alone.
   */
  async dataOf(
    rows: readonly Pick<EventRow, 'id' | 'account_id' | 'link_id'>[],
  ): Promise<{ id: string; data: unknown }[]> {
    const byAccount = new Map<number, number[]>();
    for (const row of rows) {
      if (row.link_id === null) continue;
      byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), row.link_id]);
    }
    const links = new Map<number, unknown>();
    for (const [accountId, linkIds] of byAccount) {
      for (const response of await this.responses.ofIds(accountId, [...new Set(linkIds)])) {
        links.set(response.id, response);
      }
    }
    return rows.map((row) => ({ id: row.id, data: links.get(row.link_id ?? 0) ?? { id: row.link_id } }));
  }

  /**
   * The outgoing events of these outbox ids, by id. Each is read once: the sinks claim the same events at about the
   * same time, and a second sink asking for one being read waits for that read rather than starting its own.
   */
  async outgoing(ids: readonly string[]): Promise<Map<string, OutgoingEvent>> {
    // What the memo holds is taken now: a read that ends while this one waits may push it out of the memo, and an
    // event looked up only afterwards would be missing, as if removed from the outbox, and its delivery dropped.
    const found = new Map<string, OutgoingEvent>();
    const reads = new Set<Promise<Map<string, OutgoingEvent>>>();
    const missing: string[] = [];
    for (const id of ids) {
      const remembered = this.bodies.get(id);
      if (remembered !== undefined) {
        found.set(id, remembered);
        continue;
      }
      const reading = this.reading.get(id);
      if (reading === undefined) missing.push(id);
      else reads.add(reading);
    }
    if (missing.length > 0) reads.add(this.read(missing));
    for (const events of await Promise.all(reads)) {
      for (const id of ids) {
        const event = events.get(id);
        if (event !== undefined) found.set(id, event);
      }
    }
    return found;
  }

  private read(ids: readonly string[]): Promise<Map<string, OutgoingEvent>> {
    const read = this.repository.events(ids).then(async (rows) => {
      const clicked = rows.filter((row) => row.click_links !== null).map((row) => row.id);
      const parts = await this.repository.clickParts(clicked);
      const events = new Map<string, OutgoingEvent>();
      for (const [index, row] of rows.entries()) {
        // A click event's body is some 250 KB put together here: one per turn of the event loop, so that
        // visits are answered between them.
        if (index > 0 && row.click_links !== null) await new Promise((resolve) => setImmediate(resolve));
        const event = build(row, parts);
        this.remember(row.id, event);
        events.set(row.id, event);
      }
      return events;
    });
    const settled = read.finally(() => {
      for (const id of ids) this.reading.delete(id);
    });
    for (const id of ids) this.reading.set(id, settled);
    return settled;
  }

  private remember(id: string, event: OutgoingEvent): void {
    if (event.body.length > BODY_MEMO_CHARS / 4) return;
    this.bodies.set(id, event);
    this.memoChars += event.body.length;
    for (const [oldest, old] of this.bodies) {
      if (this.memoChars <= BODY_MEMO_CHARS) break;
      this.bodies.delete(oldest);
      this.memoChars -= old.body.length;
    }
  }
}

/**
 * The body as sent: the envelope of the event's data, or of its clicks (the envelope's other fields hold no
 * character that JSON escapes).
 */
function build(row: OutgoingRow, parts: ClickParts): OutgoingEvent {
  const type = row.type as EventType;
  const head = `{"id":${JSON.stringify(row.public_id)},"type":${JSON.stringify(type)},"created_at":"${isoDate(row.created_at)}","data":`;
  const data = row.click_links === null ? JSON.stringify(row.data) : `{"clicks":${clicksJson(row, parts)}}`;
  return { id: row.public_id, type, body: `${head}${data}}` };
}

/** The tail of a click whose profile is gone: what the export shows of an unknown visitor. */
const NO_PROFILE =
  '","referrer":null,"country":null,"city":null,"continent":null,"browser":null,"operating_system":null,' +
  '"device":null,"language":null}';

/**
 * The JSON array of a click event's clicks, in the order they were counted: each its link's head, its time as the
 * API writes dates (to the millisecond, then `000Z`), and its profile's tail. The time's text up to the second is
 * made once per second: an event's clicks share a few.
 */
export function clicksJson(row: OutgoingRow, parts: ClickParts): string {
  const links = row.click_links ?? [];
  const profiles = row.click_profiles ?? [];
  const offsets = row.click_offsets ?? [];
  const base = row.click_base?.getTime() ?? 0;
  const clicks = new Array<string>(links.length);
  let second = Number.NaN;
  let prefix = '';
  for (let index = 0; index < links.length; index += 1) {
    const at = base + offsets[index];
    const atSecond = Math.floor(at / 1000);
    if (atSecond !== second) {
      second = atSecond;
      // `2026-11-26T14:30:34.` of `2026-11-26T14:30:34.000Z`.
      prefix = new Date(atSecond * 1000).toISOString().slice(0, -4);
    }
    const millisecond = at - atSecond * 1000;
    const head = parts.heads.get(links[index]) ?? `{"link_id":${links[index]},"alias":null,"created_at":"`;
    clicks[index] =
      head +
      prefix +
      (millisecond < 10 ? '00' : millisecond < 100 ? '0' : '') +
      millisecond +
      '000Z' +
      (parts.tails.get(profiles[index]) ?? NO_PROFILE);
  }
  return `[${clicks.join(',')}]`;
}
