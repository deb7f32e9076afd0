import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ListedClick } from '../src/api/types';
import { VisitsTable } from '../src/features/stats/VisitsTable';
import { json, type Recorded } from './api';
import { renderSignedIn } from './render';

const VISIT: ListedClick = {
  created_at: '2026-11-20T10:05:00.000000Z',
  referrer: 'news.example.org',
  country: 'GB',
  city: 'London',
  continent: 'EU',
  browser: 'Safari',
  operating_system: 'iOS',
  device: 'Mobile',
  language: 'de',
  target: 'https://example.com/spring',
};
const UNKNOWN: ListedClick = {
  created_at: '2026-11-20T09:00:00.000000Z',
  referrer: null,
  country: null,
  city: null,
  continent: null,
  browser: 'Chrome',
  operating_system: 'Windows',
  device: 'Desktop',
  language: null,
  target: null,
};

/** A page of visits as the API answers it: `total` of them, 25 a page. */
function pageOf(visits: ListedClick[], page: number, total: number) {
  const from = visits.length === 0 ? null : (page - 1) * 25 + 1;
  return {
    data: visits,
    links: { first: '', last: '', prev: null, next: null },
    meta: {
      current_page: page,
      from,
      last_page: Math.max(1, Math.ceil(total / 25)),
      links: [],
      path: '',
      per_page: 25,
      to: from === null ? null : from + visits.length - 1,
      total,
    },
    status: 200,
  };
}

async function renderVisits(total: number, visits = [VISIT, UNKNOWN]) {
  const view = await renderSignedIn(
    <VisitsTable linkId={5} from="2026-11-01" to="2026-11-20" name="s.example/spring" />,
    {
      routes: {
        'GET /api/v1/stats/5/clicks': (request: Recorded) =>
          json(200, pageOf(visits, Number(request.url.searchParams.get('page')), total)),
      },
    },
  );
  const asked = () =>
    view.api
      .to('GET', '/api/v1/stats/5/clicks')
      .map((request) => Object.fromEntries(request.url.searchParams));
  return { ...view, asked, user: userEvent.setup({ delay: null }) };
}

describe('the visits of a link', () => {
  it('lists the period’s visits newest first, each value as the reader reads it', async () => {
    const { asked } = await renderVisits(2);

    const table = await screen.findByRole('table', { name: 'Visits of s.example/spring, newest first' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Time', 'Country', 'City', 'Referrer', 'Browser', 'System', 'Device', 'Language', 'Sent to']);
    const [, known, unknown] = within(table).getAllByRole('row');
    const time = within(known!).getByRole('rowheader').querySelector('time');
    expect(time).toHaveAttribute('datetime', VISIT.created_at);
    // 10:05 UTC in the reader's zone, Paris's for the tests.
    expect(time).toHaveTextContent(/^Nov 20, 2026, 11:05\sAM$/);
    expect(
      within(known!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'United Kingdom',
      'London',
      'news.example.org',
      'Safari',
      'iOS',
      'Mobile',
      'German',
      'https://example.com/spring',
    ]);
    expect(
      within(unknown!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Unknown',
      'Unknown',
      'Direct, or no referrer',
      'Chrome',
      'Windows',
      'Desktop',
      'Unknown',
      'Unknown',
    ]);
    expect(asked()).toEqual([{ from: '2026-11-01', to: '2026-11-20', per_page: '25', page: '1' }]);
    const pages = screen.getByRole('navigation', { name: 'Pages of Visits' });
    expect(within(pages).getByText('1–2 of 2')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('walks the pages by keyboard, and stops where the API stops listing', async () => {
    const { asked, user } = await renderVisits(1_000_000);

    const pages = await screen.findByRole('navigation', { name: 'Pages of Visits' });
    expect(within(pages).getByText('Page 1 of 400')).toBeInTheDocument();
    expect(within(pages).getByText('1–2 of 1,000,000')).toBeInTheDocument();
    expect(
      screen.getByText(
        'The table reaches the 10,000 newest visits of the period: narrow the period, or export the clicks, for older ones.',
      ),
    ).toBeInTheDocument();

    within(pages).getByRole('button', { name: 'Next' }).focus();
    await user.keyboard('{Enter}');
    expect(await within(pages).findByText('Page 2 of 400')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Last' }));
    expect(await within(pages).findByText('Page 400 of 400')).toBeInTheDocument();
    expect(asked().map((query) => query.page)).toEqual(['1', '2', '400']);
  });

  it('says so when the period has no visits', async () => {
    await renderVisits(0, []);

    expect(await screen.findByText('No clicks in this period.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
