import { lsnValue, WalHistory } from './read-replicas';

describe('lsnValue', () => {
  it('orders positions of the write-ahead log as PostgreSQL does, across the 4 GB boundary of their halves', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
  });
});

describe('WalHistory', () => {
  it('tells up to when a replica has everything: the latest time the primary had written no more than it replayed', () => {
    const history = new WalHistory();
    history.add(1000, 100n);
    history.add(1200, 150n);
    history.add(1400, 150n);
    history.add(1600, 300n);
    expect(history.caughtUpTo(300n)).toBe(1600);
    // An idle primary (the same position at 1200 and 1400) does not make a replica that has it look behind.
    expect(history.caughtUpTo(150n)).toBe(1400);
    expect(history.caughtUpTo(299n)).toBe(1400);
    expect(history.caughtUpTo(100n)).toBe(1000);
    expect(history.caughtUpTo(99n)).toBeNull();
  });

  it('keeps ten minutes of positions, and always the latest', () => {
    const history = new WalHistory();
    history.add(0, 1n);
    history.add(11 * 60_000, 2n);
    expect(history.caughtUpTo(1n)).toBeNull();
    expect(history.caughtUpTo(2n)).toBe(11 * 60_000);
  });
});
