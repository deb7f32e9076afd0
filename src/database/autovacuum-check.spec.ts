import type { DataSource } from 'typeorm';
import { warnWhenAutovacuumIsOff } from './autovacuum-check';

function serverWith(settings: Record<string, string>): DataSource {
  return {
    query: (_sql: string, [names]: [string[]]) =>
      Promise.resolve(names.map((name) => ({ name, setting: settings[name] ?? 'on' }))),
  } as unknown as DataSource;
}

describe('warnWhenAutovacuumIsOff', () => {
  it('says nothing when the server vacuums', async () => {
    const warn = jest.fn();

    await warnWhenAutovacuumIsOff(serverWith({}), { warn });

    expect(warn).not.toHaveBeenCalled();
  });

  it('names each setting that keeps autovacuum from running', async () => {
    const warn = jest.fn();

    await warnWhenAutovacuumIsOff(serverWith({ autovacuum: 'off' }), { warn });
    await warnWhenAutovacuumIsOff(serverWith({ autovacuum: 'off', track_counts: 'off' }), { warn });

    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0][0]).toMatch(/^autovacuum is off on the database server/);
    expect(warn.mock.calls[1][0]).toMatch(/^autovacuum and track_counts are off/);
  });
});
