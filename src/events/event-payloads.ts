import { Injectable } from '@nestjs/common';
import { isoDate } from '../common/dates';
import { LinkResponses } from '../links/link-responses';
import type { EventEnvelope, EventType, OutgoingEvent } from '../outbox/event';
import { EventsRepository, type EventRow, type ProfileRow } from './events.repository';

/** Profiles remembered, at most: they never change once numbered. */
const PROFILE_MEMO = 50_000;
/** Bodies remembered, at most: an event goes to several sinks, usually within the same second. */
const BODY_MEMO = 2_000;

/**
 * The bodies of events, built once for every sink that takes them: the event's own data, or for `link.clicked`
 * its clicks decoded (each with its link's alias, and what the click export shows of its visitor).
 */
@Injectable()
export class EventPayloads {
  private readonly profiles = new Map<number, ProfileRow>();
  private readonly bodies = new Map<string, OutgoingEvent>();

  constructor(
    private readonly repository: EventsRepository,
    private readonly responses: LinkResponses,
  ) {}

  /**
   * The data of events written without it: each link as the API shows it now (a `link.limit_reached` is built as
   * soon as it is sent; a change's data is its own request's, unless a crash came between). A link deleted since
   * is `{"id": ...}` alone.
   */
  async dataOf(rows: readonly EventRow[]): Promise<{ id: string; data: unknown }[]> {
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

  /** The outgoing events of these outbox ids, by id. */
  async outgoing(ids: readonly string[]): Promise<Map<string, OutgoingEvent>> {
    const found = new Map<string, OutgoingEvent>();
    const missing: string[] = [];
    for (const id of ids) {
      const body = this.bodies.get(id);
      if (body === undefined) missing.push(id);
      else found.set(id, body);
    }
    const rows = await this.repository.events(missing);
    await this.learnProfiles(rows);
    const aliases = await this.repository.aliases([...new Set(rows.flatMap((row) => row.click_links ?? []))]);
    for (const row of rows) {
      const event = this.build(row, aliases);
      if (this.bodies.size >= BODY_MEMO) this.bodies.delete(this.bodies.keys().next().value!);
      this.bodies.set(row.id, event);
      found.set(row.id, event);
    }
    return found;
  }

  private build(row: EventRow, aliases: ReadonlyMap<number, string>): OutgoingEvent {
    const type = row.type as EventType;
    const envelope: EventEnvelope = {
      id: row.public_id,
      type,
      created_at: isoDate(row.created_at),
      data: type === 'link.clicked' ? { clicks: this.clicks(row, aliases) } : row.data,
    };
    return { id: row.public_id, type, body: JSON.stringify(envelope) };
  }

  private clicks(row: EventRow, aliases: ReadonlyMap<number, string>): unknown[] {
    const links = row.click_links ?? [];
    const times = row.click_times ?? [];
    const profiles = row.click_profiles ?? [];
    return links.map((linkId, index) => {
      const profile = this.profiles.get(profiles[index]);
      return {
        link_id: linkId,
        alias: aliases.get(linkId) ?? null,
        created_at: isoDate(new Date(times[index])),
        referrer: profile?.referrer ?? null,
        country: profile?.country ?? null,
        city: profile?.city ?? null,
        continent: profile?.continent ?? null,
        browser: profile?.browser ?? null,
        operating_system: profile?.operating_system ?? null,
        device: profile?.device ?? null,
        language: profile?.language ?? null,
      };
    });
  }

  private async learnProfiles(rows: readonly EventRow[]): Promise<void> {
    const unknown = new Set<number>();
    for (const row of rows)
      for (const id of row.click_profiles ?? []) if (!this.profiles.has(id)) unknown.add(id);
    if (unknown.size === 0) return;
    if (this.profiles.size + unknown.size > PROFILE_MEMO) this.profiles.clear();
    for (const profile of await this.repository.profileTexts([...unknown]))
      this.profiles.set(profile.id, profile);
  }
}
