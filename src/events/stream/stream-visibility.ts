import type { EventEnvelope } from '../outbox/event';

/**
 * What decides whether a caller restricted to spaces may read an event: for a click event, the space each clicked
 * link is in now; for a deletion, the space the link was in when it was deleted (its audit entry says, written in
 * the same transaction); by link id, null for no space. A link missing from the map is not the caller's to read.
 */
export interface SpaceFacts {
  linkSpaces: ReadonlyMap<number, number | null>;
  deletedSpaces: ReadonlyMap<number, number | null>;
}

/** A click of a `link.clicked` event, as far as the filter reads it. */
interface Click {
  link_id: number;
}

/** The link ids whose clicks a `link.clicked` event carries. */
export function clickedLinkIds(event: EventEnvelope): number[] {
  return clicksOf(event).map((click) => click.link_id);
}

function clicksOf(event: EventEnvelope): Click[] {
  const clicks = (event.data as { clicks?: unknown } | null)?.clicks;
  return Array.isArray(clicks) ? (clicks as Click[]) : [];
}

function within(spaceIds: readonly number[], spaceId: number | null | undefined): boolean {
  return spaceId !== undefined && spaceId !== null && spaceIds.includes(spaceId);
}

/**
 * The event as a caller restricted to `spaceIds` may read it: whole, when it is about a link in those spaces; a
 * click event with the clicks of those spaces' links alone (its id kept: it is the same event); or null. A created,
 * updated, limit or health event is judged by the link it shows (the link as the event was written: a link moved
 * out of the spaces is no longer shown, one moved in is), a deletion by where the link was.
 */
export function visibleTo(
  event: EventEnvelope,
  spaceIds: readonly number[],
  facts: SpaceFacts,
): EventEnvelope | null {
  switch (event.type) {
    case 'link.clicked': {
      const clicks = clicksOf(event);
      const visible = clicks.filter((click) => within(spaceIds, facts.linkSpaces.get(click.link_id)));
      if (visible.length === 0) return null;
      return visible.length === clicks.length ? event : { ...event, data: { clicks: visible } };
    }
    case 'link.deleted': {
      const id = (event.data as { id?: unknown } | null)?.id;
      return typeof id === 'number' && within(spaceIds, facts.deletedSpaces.get(id)) ? event : null;
    }
    case 'link.created':
    case 'link.updated':
    case 'link.limit_reached':
    case 'link.broken':
    case 'link.recovered': {
      const space = (event.data as { space?: { id?: unknown } | null } | null)?.space;
      return typeof space?.id === 'number' && within(spaceIds, space.id) ? event : null;
    }
    case 'ping':
      return null;
  }
}
