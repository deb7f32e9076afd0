import type { EventEnvelope } from '../outbox/event';
import { clickedLinkIds, visibleTo, type SpaceFacts } from './stream-visibility';

const facts: SpaceFacts = {
  linkSpaces: new Map([
    [1, 10],
    [2, 20],
    [3, null],
  ]),
  deletedSpaces: new Map([
    [7, 10],
    [8, null],
  ]),
};

function event(type: EventEnvelope['type'], data: unknown): EventEnvelope {
  return { id: 'evt_1', type, created_at: '2026-01-01T00:00:00.000000Z', data };
}

describe('what a key restricted to spaces reads of an event', () => {
  it('a link event when the link it shows is in one of its spaces', () => {
    const inside = event('link.updated', { id: 1, space: { id: 10, name: 'A' } });
    expect(visibleTo(inside, [10], facts)).toBe(inside);
    expect(visibleTo(event('link.updated', { id: 2, space: { id: 20 } }), [10], facts)).toBeNull();
    expect(visibleTo(event('link.created', { id: 3, space: null }), [10], facts)).toBeNull();
    // A link deleted before its event was sent shows its id alone: not the restricted key's to read.
    expect(visibleTo(event('link.limit_reached', { id: 1 }), [10], facts)).toBeNull();
  });

  it('a deletion when the link was in one of its spaces as it was deleted, and no other', () => {
    expect(visibleTo(event('link.deleted', { id: 7 }), [10], facts)).not.toBeNull();
    expect(visibleTo(event('link.deleted', { id: 7 }), [20], facts)).toBeNull();
    expect(visibleTo(event('link.deleted', { id: 8 }), [10], facts)).toBeNull();
    expect(visibleTo(event('link.deleted', { id: 9 }), [10], facts)).toBeNull();
  });

  it("a click event with its spaces' clicks alone, under the same id; none when no click is of them", () => {
    const clicks = event('link.clicked', {
      clicks: [{ link_id: 1 }, { link_id: 2 }, { link_id: 1 }, { link_id: 3 }, { link_id: 4 }],
    });
    expect(clickedLinkIds(clicks)).toEqual([1, 2, 1, 3, 4]);
    expect(visibleTo(clicks, [10], facts)).toEqual({
      ...clicks,
      data: { clicks: [{ link_id: 1 }, { link_id: 1 }] },
    });
    expect(visibleTo(clicks, [10, 20], facts)?.id).toBe('evt_1');
    expect(visibleTo(clicks, [30], facts)).toBeNull();
    const mine = event('link.clicked', { clicks: [{ link_id: 2 }] });
    expect(visibleTo(mine, [20], facts)).toBe(mine);
  });
});
