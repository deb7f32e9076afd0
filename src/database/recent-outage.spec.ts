import { OUTAGE_HOLD_MS, RecentOutage } from './recent-outage';

const AWAY = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });

describe('RecentOutage', () => {
  afterEach(() => jest.useRealTimers());

  it('holds after an outage, then lets one read probe while the others still take the database as away', () => {
    jest.useFakeTimers();
    const outage = new RecentOutage();
    expect(outage.now).toBe(false);
    // Without an outage, a read is no probe: reads go on as usual.
    outage.probe();
    expect(outage.now).toBe(false);

    expect(outage.seen(AWAY)).toBe(true);
    expect(outage.now).toBe(true);
    jest.advanceTimersByTime(OUTAGE_HOLD_MS);
    expect(outage.now).toBe(false);
    outage.probe();
    expect(outage.now).toBe(true);
    // The probe failed: held again.
    outage.seen(AWAY);
    jest.advanceTimersByTime(OUTAGE_HOLD_MS - 1);
    expect(outage.now).toBe(true);
    jest.advanceTimersByTime(1);
    outage.probe();
    outage.answered();
    expect(outage.now).toBe(false);
    outage.probe();
    expect(outage.now).toBe(false);
  });

  it('takes no failure but an outage for one, and ends a probe that failed otherwise', () => {
    const outage = new RecentOutage();
    outage.seen(AWAY);
    const bug = Object.assign(new Error('syntax error'), { code: '42601', severity: 'ERROR' });
    jest.useFakeTimers();
    jest.advanceTimersByTime(OUTAGE_HOLD_MS);
    outage.probe();
    expect(outage.seen(bug)).toBe(false);
    expect(outage.now).toBe(false);
  });
});
