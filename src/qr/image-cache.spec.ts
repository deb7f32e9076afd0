import { ImageCache, type Sized } from './image-cache';

interface Drawn extends Sized {
  name: string;
}

function maker(bytes = 100) {
  const made: string[] = [];
  const make = (name: string) => () => {
    made.push(name);
    return Promise.resolve<Drawn>({ name, bytes });
  };
  return { made, make };
}

describe('ImageCache', () => {
  it('makes a key once and answers the same object again', async () => {
    const cache = new ImageCache<Drawn>(10_000);
    const { made, make } = maker();
    const first = await cache.get('a', make('a'));
    const again = await cache.get('a', make('a'));
    expect(again).toBe(first);
    expect(made).toEqual(['a']);
  });

  it('makes a key asked for again while it is being made only once', async () => {
    const cache = new ImageCache<Drawn>(10_000);
    const { made, make } = maker();
    const answers = await Promise.all([1, 2, 3, 4].map(() => cache.get('a', make('a'))));
    expect(made).toEqual(['a']);
    expect(new Set(answers).size).toBe(1);
  });

  it('keeps within its bytes, dropping the least recently used first', async () => {
    // Each entry costs its 100 bytes and its one-character key (2 bytes): three fit in 310.
    const cache = new ImageCache<Drawn>(310);
    const { made, make } = maker();
    for (const key of ['a', 'b', 'c']) await cache.get(key, make(key));
    await cache.get('a', make('a'));
    await cache.get('d', make('d'));
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeLessThanOrEqual(310);
    await cache.get('a', make('a'));
    await cache.get('c', make('c'));
    await cache.get('b', make('b'));
    expect(made).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('answers but does not keep what is larger than the whole budget', async () => {
    const cache = new ImageCache<Drawn>(50);
    const { made, make } = maker(100);
    await cache.get('a', make('a'));
    await cache.get('a', make('a'));
    expect(made).toEqual(['a', 'a']);
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
  });

  it('keeps no failure: the next ask makes it again', async () => {
    const cache = new ImageCache<Drawn>(10_000);
    await expect(cache.get('a', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    const { made, make } = maker();
    await cache.get('a', make('a'));
    expect(made).toEqual(['a']);
  });
});
