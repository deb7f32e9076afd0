import crypto from 'node:crypto';
import { ValidationFailedException } from '../common/exceptions';
import { AliasAllocator, type AliasRequest } from './alias-allocator';
import { Link } from './link.entity';

function request(alias: string | null): AliasRequest {
  return { link: new Link(), alias };
}

/** An insert that finds `taken` aliases already in use (case aside), and records what each round was sent. */
function inserting(taken: string[]) {
  const used = new Set(taken.map((alias) => alias.toLowerCase()));
  const rounds: string[][] = [];
  const insert = (requests: AliasRequest[]) => {
    rounds.push(requests.map(({ link }) => link.alias));
    const refused = new Set<AliasRequest>();
    for (const item of requests) {
      const alias = item.link.alias.toLowerCase();
      if (used.has(alias)) refused.add(item);
      else used.add(alias);
    }
    return Promise.resolve(refused);
  };
  return { insert, rounds };
}

const field = (index: number) => `links.${index}.alias`;

describe('AliasAllocator', () => {
  const allocator = new AliasAllocator();

  afterEach(() => jest.restoreAllMocks());

  it('inserts every link at once: asked aliases as asked, random ones of five characters', async () => {
    const requests = [request(null), request('Spring'), request(null)];
    const { insert, rounds } = inserting([]);

    await allocator.insert(requests, insert, field);

    expect(rounds).toHaveLength(1);
    expect(requests.map(({ link }) => link.alias)).toEqual([
      expect.stringMatching(/^[0-9a-z]{5}$/),
      'Spring',
      expect.stringMatching(/^[0-9a-z]{5}$/),
    ]);
  });

  it('draws again, together and one character longer, the random aliases that were taken', async () => {
    jest.spyOn(crypto, 'randomInt').mockImplementation(() => 0);
    const requests = [request(null), request('asked'), request(null), request(null)];
    const { insert, rounds } = inserting(['00000']);

    await allocator.insert(requests, insert, field);

    expect(rounds).toEqual([
      ['00000', 'asked', '00000', '00000'],
      ['000000', '000000', '000000'],
      ['0000000', '0000000'],
      ['00000000'],
    ]);
    expect(requests.map(({ link }) => link.alias)).toEqual(['000000', 'asked', '0000000', '00000000']);
  });

  it('refuses every asked alias taken, by another link or an earlier one of the same request, under its field', async () => {
    const requests = [request(null), request('free'), request('held'), request('FREE')];
    const { insert, rounds } = inserting(['Held']);

    const refusal = await allocator.insert(requests, insert, field).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(ValidationFailedException);
    expect((refusal as ValidationFailedException).fields).toEqual({
      'links.2.alias': ['The alias has already been taken.'],
      'links.3.alias': ['The alias has already been taken.'],
    });
    expect(rounds).toHaveLength(1);
  });

  it('never gives a reserved alias', async () => {
    // "00000" is taken; the six-character draw that follows spells "assets", reserved, and is drawn again.
    const spelled = (word: string) =>
      [...word].map((character) => '0123456789abcdefghijklmnopqrstuvwxyz'.indexOf(character));
    const draws = [...spelled('00000'), ...spelled('assets')];
    jest.spyOn(crypto, 'randomInt').mockImplementation(() => draws.shift() ?? 0);
    const requests = [request(null)];
    const { insert, rounds } = inserting(['00000']);

    await allocator.insert(requests, insert, field);

    expect(rounds).toEqual([['00000'], ['000000']]);
  });

  it('gives up after eight rounds', async () => {
    jest.spyOn(crypto, 'randomInt').mockImplementation(() => 0);
    const everyAlias = (requests: AliasRequest[]) => Promise.resolve(new Set(requests));

    await expect(allocator.insert([request(null)], everyAlias, field)).rejects.toThrow(
      'No free random alias after 8 attempts',
    );
  });
});
