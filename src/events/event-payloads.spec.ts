import { isoDate } from '../common/dates';
import { clicksJson, EventPayloads } from './event-payloads';
import type { EventsRepository, OutgoingRow } from './events.repository';
import type { LinkResponses } from '../links/link-responses';

/** A read of the outbox that the test ends when it chooses. */
interface PendingRead {
  ids: readonly string[];
  end: () => void;
}

/**
 * The outbox's reads, answered by hand: each event's body is `size` characters of data, so that a few fill the
 * memo. No database: what is under test is the memo and the sharing of reads between sinks.
 */
function outbox(size: number) {
  const pending: PendingRead[] = [];
  const repository = {
    clickParts: () => Promise.resolve({ heads: new Map(), tails: new Map() }),
    events: (ids: readonly string[]) =>
      new Promise<OutgoingRow[]>((resolve) => {
        pending.push({
          ids,
          end: () =>
            resolve(
              ids.map((id) => ({
                id,
                public_id: `evt_${id}`,
                type: 'link.created',
                data: { id: Number(id), filler: 'x'.repeat(size) },
                created_at: new Date('2026-11-26T12:00:00Z'),
                click_links: null,
                click_profiles: null,
                click_base: null,
                click_offsets: null,
              })),
            ),
        });
      }),
  } as unknown as EventsRepository;
  return { pending, payloads: new EventPayloads(repository, {} as LinkResponses) };
}

/** Ends the reads made so far, in turn, and lets their callers run. */
async function endReads(pending: PendingRead[]): Promise<void> {
  for (const read of pending.splice(0)) read.end();
  await new Promise((resolve) => setImmediate(resolve));
}

describe('EventPayloads.outgoing', () => {
  it('reads an event once for the sinks that ask for it at the same time', async () => {
    const { pending, payloads } = outbox(10);
    const first = payloads.outgoing(['1', '2']);
    const second = payloads.outgoing(['2', '3']);
    expect(pending.map((read) => read.ids)).toEqual([['1', '2'], ['3']]);
    await endReads(pending);
    expect([...(await first).keys()]).toEqual(['1', '2']);
    expect([...(await second).keys()].sort()).toEqual(['2', '3']);
    expect((await second).get('2')).toBe((await first).get('2'));
  });

  it('keeps an event it found in memory while a read ends that pushes it out of memory', async () => {
    // Bodies of 3.5 million characters: four fill the memo of 16 million, a fifth pushes the oldest out.
    const { pending, payloads } = outbox(3_500_000);
    const remembered = payloads.outgoing(['1']);
    await endReads(pending);
    expect((await remembered).has('1')).toBe(true);

    // A sink asks for '1' (in memory) and '2' (to read); meanwhile another's read of four more ends first.
    const asking = payloads.outgoing(['1', '2']);
    const [readOfTwo] = pending.splice(0);
    const crowding = payloads.outgoing(['3', '4', '5', '6']);
    await endReads(pending);
    expect((await crowding).size).toBe(4);
    readOfTwo.end();

    const events = await asking;
    expect([...events.keys()].sort()).toEqual(['1', '2']);
    expect(JSON.parse(events.get('1')!.body)).toMatchObject({ id: 'evt_1', data: { id: 1 } });
  });
});

describe('clicksJson', () => {
  const parts = {
    heads: new Map([[7, '{"link_id":7,"alias":"spring","created_at":"']]),
    tails: new Map([
      [
        3,
        '","referrer":"news.example","country":"GB","city":"London","continent":"EU","browser":"Firefox",' +
          '"operating_system":"Linux","device":"Desktop","language":"en"}',
      ],
    ]),
  };

  it('writes each click with its link, its time as the API writes dates, and its visitor, in order', () => {
    const base = new Date('2026-11-26T23:59:59.998Z');
    const offsets = [0, 1, 2, 1003, -5];
    const json = clicksJson(
      {
        id: '1',
        public_id: 'evt_1',
        type: 'link.clicked',
        data: null,
        created_at: base,
        click_links: [7, 7, 8, 7, 7],
        click_profiles: [3, 4, 3, 3, 3],
        click_base: base,
        click_offsets: offsets,
      },
      parts,
    );
    const clicks = JSON.parse(json) as Record<string, unknown>[];
    expect(clicks.map((click) => click.created_at)).toEqual(
      offsets.map((offset) => isoDate(new Date(base.getTime() + offset))),
    );
    expect(clicks.map((click) => click.created_at)).toEqual([
      '2026-11-26T23:59:59.998000Z',
      '2026-11-26T23:59:59.999000Z',
      '2026-11-27T00:00:00.000000Z',
      '2026-11-27T00:00:01.001000Z',
      '2026-11-26T23:59:59.993000Z',
    ]);
    expect(clicks[0]).toEqual({
      link_id: 7,
      alias: 'spring',
      created_at: '2026-11-26T23:59:59.998000Z',
      referrer: 'news.example',
      country: 'GB',
      city: 'London',
      continent: 'EU',
      browser: 'Firefox',
      operating_system: 'Linux',
      device: 'Desktop',
      language: 'en',
    });
    // A link deleted since, and a profile unknown: the click still says what it can.
    expect(clicks[1]).toMatchObject({ link_id: 7, referrer: null, country: null, language: null });
    expect(clicks[2]).toMatchObject({ link_id: 8, alias: null, country: 'GB' });
  });

  it('writes an empty array for an event without clicks', () => {
    const empty = { id: '2', public_id: 'evt_2', type: 'link.clicked', data: null, created_at: new Date(0) };
    expect(
      clicksJson(
        { ...empty, click_links: [], click_profiles: [], click_base: new Date(0), click_offsets: [] },
        parts,
      ),
    ).toBe('[]');
  });
});
