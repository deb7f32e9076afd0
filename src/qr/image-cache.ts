/** What the cache holds: anything that says how many bytes it keeps alive. */
export interface Sized {
  bytes: number;
}

/**
 * Values by key within a budget of bytes, the least recently used dropped first; a key asked for again while it
 * is being made waits for that one making rather than starting another.
 */
export class ImageCache<T extends Sized> {
  private readonly entries = new Map<string, T>();
  private readonly making = new Map<string, Promise<T>>();
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  /** The bytes held now, keys included. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, make: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Map keeps insertion order: the entry moves to the end, the most recently used.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const pending = this.making.get(key);
    if (pending !== undefined) return pending;
    const made = make()
      .then((value) => {
        this.store(key, value);
        return value;
      })
      .finally(() => this.making.delete(key));
    this.making.set(key, made);
    return made;
  }

  private store(key: string, value: T): void {
    const cost = value.bytes + key.length * 2;
    // A value larger than the whole budget is answered but not kept.
    if (cost > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, value);
    this.held += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= entry.bytes + oldest.length * 2;
    }
  }
}
