import { linkStatus, LinkStatus, type StatusInput } from './link-status';

type Fields = Partial<StatusInput> & { clicks?: number };

function link(fields: Fields): StatusInput {
  return {
    disabled: false,
    activePeriodStartAt: null,
    activePeriodEndAt: null,
    clicksLimit: null,
    ...fields,
  };
}

const now = new Date('2026-11-21T10:00:00Z');
const past = new Date('2026-11-20T10:00:00Z');
const future = new Date('2026-11-22T10:00:00Z');

describe('linkStatus', () => {
  it.each<[string, Fields, LinkStatus]>([
    ['a plain link', {}, LinkStatus.Active],
    ['inside its active period', { activePeriodStartAt: past, activePeriodEndAt: future }, LinkStatus.Active],
    [
      'before its active period',
      { activePeriodStartAt: future, activePeriodEndAt: future },
      LinkStatus.Expired,
    ],
    ['after its active period', { activePeriodStartAt: past, activePeriodEndAt: past }, LinkStatus.Expired],
    [
      'at the very end of its period',
      { activePeriodStartAt: past, activePeriodEndAt: now },
      LinkStatus.Expired,
    ],
    ['under its clicks limit', { clicksLimit: 5, clicks: 4 }, LinkStatus.Active],
    ['at its clicks limit', { clicksLimit: 5, clicks: 5 }, LinkStatus.Expired],
    ['disabled', { disabled: true }, LinkStatus.Disabled],
    ['disabled and expired', { disabled: true, clicksLimit: 1, clicks: 1 }, LinkStatus.Disabled],
  ])('%s', (_name, fields, expected) => {
    expect(linkStatus(link(fields), fields.clicks ?? 0, now)).toBe(expected);
  });
});
