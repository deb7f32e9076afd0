import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AnalyticsPage from '../src/features/analytics/AnalyticsPage';
import { comparisonQuery, workspaceQuery, type AnalyticsFilters } from '../src/features/analytics/query';
import { json, listOf, type Recorded } from './api';
import { domain, link, space, tag } from './fixtures';
import { renderSignedIn } from './render';

const FILTERS: AnalyticsFilters = { space: '', domain: '', tag: '', from: '2026-11-01', to: '2026-11-03' };

/** The workspace's stats as the stand-in answers them: a few days of clicks, two countries, a link's own. */
function stats(request: Recorded) {
  const query = request.url.searchParams;
  const name = query.get('name');
  const linkId = query.get('link_ids');
  if (name === 'click') {
    const count = linkId === null ? 4 : Number(linkId);
    return json(200, { data: [{ value: '2026-11-02', count }], status: 200 });
  }
  if (name === 'country') {
    return json(
      200,
      listOf([
        { value: 'GB:United Kingdom', count: 3 },
        { value: 'FR:France', count: 1 },
        { value: null, count: 2 },
      ]),
    );
  }
  return json(200, listOf([]));
}

async function renderAnalytics() {
  const view = await renderSignedIn(<AnalyticsPage />, {
    path: '/analytics',
    routes: {
      'GET /api/v1/stats': stats,
      'GET /api/v1/spaces': listOf([space]),
      'GET /api/v1/domains': listOf([domain]),
      'GET /api/v1/tags': listOf([tag()]),
      'GET /api/v1/pixels': listOf([]),
      'GET /api/v1/links': listOf([
        link({ id: 7, short_url: 'https://sho.rt/seven', clicks: 7 }),
        link({ id: 5, short_url: 'https://sho.rt/spring', clicks: 5 }),
      ]),
    },
  });
  const asked = (name: string) =>
    view.api
      .to('GET', '/api/v1/stats')
      .map((request) => request.url.searchParams)
      .filter((query) => query.get('name') === name);
  return { ...view, asked, user: userEvent.setup({ delay: null }) };
}

describe('the workspace’s analytics', () => {
  it('turns the filters into the API’s parameters, each only when set', () => {
    expect(workspaceQuery({ ...FILTERS, from: '' })).toEqual({ to: '2026-11-03' });
    expect(workspaceQuery({ ...FILTERS, space: '3', domain: '1', tag: ' News ' })).toEqual({
      space_id: 3,
      domain_id: 1,
      tag: ['News'],
      from: '2026-11-01',
      to: '2026-11-03',
    });
    expect(workspaceQuery({ ...FILTERS, space: '0' }).space_id).toBe(0);
  });

  it('narrows a compared item by its own filter', () => {
    const period = { from: '2026-11-01', to: '2026-11-03' };
    expect(comparisonQuery({ kind: 'link', value: '5', label: 'a' }, FILTERS)).toEqual({
      name: 'click',
      link_ids: [5],
      ...period,
    });
    expect(comparisonQuery({ kind: 'space', value: '3', label: 'b' }, FILTERS)).toMatchObject({
      space_id: 3,
    });
    expect(comparisonQuery({ kind: 'tag', value: 'News', label: 'c' }, FILTERS)).toMatchObject({
      tag: ['News'],
    });
    expect(comparisonQuery({ kind: 'domain', value: '1', label: 'd' }, FILTERS)).toMatchObject({
      domain_id: 1,
    });
  });

  it('asks every request again with the space chosen', async () => {
    const { asked, user } = await renderAnalytics();
    expect(await screen.findByText('4 clicks in this period')).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Space' }), 'Marketing');

    await waitFor(() => expect(asked('click').at(-1)?.get('space_id')).toBe('3'));
    expect(asked('country').at(-1)?.get('space_id')).toBe('3');
    expect(asked('referrer').at(-1)?.get('space_id')).toBe('3');
  });

  it('lists the countries and their clicks beside the map, each shape titled with its count', async () => {
    await renderAnalytics();

    const table = await screen.findByRole('table', { name: 'World map of visits by country' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['United Kingdom3', 'France1']);
    const map = screen.getByRole('img', { name: 'World map of visits by country' });
    const titles = [...map.querySelectorAll('path > title')].map((title) => title.textContent);
    expect(titles).toContain('United Kingdom: 3 clicks');
    expect(titles).toContain('France: 1 click');
    expect(titles).toContain('Germany: 0 clicks');
  });

  it('draws one series per compared link, each asked with its own link_ids[]', async () => {
    const { asked, user } = await renderAnalytics();
    const choices = await screen.findByRole('group', { name: 'Choose up to 5' });

    await user.click(await within(choices).findByRole('checkbox', { name: 'https://sho.rt/seven' }));
    await user.click(within(choices).getByRole('checkbox', { name: 'https://sho.rt/spring' }));

    const chart = await screen.findByRole('img', {
      name: 'Clicks over time of https://sho.rt/seven, https://sho.rt/spring',
    });
    const figure = chart.closest('figure')!;
    expect(figure.querySelectorAll('polyline')).toHaveLength(2);
    expect(
      within(figure)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['https://sho.rt/seven', 'https://sho.rt/spring']);
    const linkIds = asked('click').map((query) => query.getAll('link_ids'));
    expect(linkIds).toContainEqual(['7']);
    expect(linkIds).toContainEqual(['5']);
    const table = within(figure).getByRole('table');
    expect(within(table).getByRole('row', { name: /2026-11-02/ }).textContent).toBe('2026-11-0275');
  });
});
