import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import DomainsPage from '../src/features/domains/DomainsPage';
import KeysPage from '../src/features/keys/KeysPage';
import LinksPage from '../src/features/links/LinksPage';
import PixelsPage from '../src/features/pixels/PixelsPage';
import SpacesPage from '../src/features/spaces/SpacesPage';
import TagsPage from '../src/features/tags/TagsPage';
import UtmTemplatesPage from '../src/features/utm/UtmTemplatesPage';
import WebhooksPage from '../src/features/webhooks/WebhooksPage';
import { listOf } from './api';
import { renderSignedIn } from './render';

const NOTHING = {
  'GET /api/v1/links': listOf([]),
  'GET /api/v1/spaces': listOf([]),
  'GET /api/v1/tags': listOf([]),
  'GET /api/v1/utm-templates': listOf([]),
  'GET /api/v1/domains': listOf([]),
  'GET /api/v1/pixels': listOf([]),
  'GET /api/v1/keys': listOf([]),
  'GET /api/v1/webhooks': listOf([]),
};

const SCREENS: [string, ComponentType, string, string, string][] = [
  ['links', LinksPage, '/links', 'No links yet.', 'New link'],
  ['spaces', SpacesPage, '/spaces', 'No spaces yet. Spaces group links and give them a colour.', 'New space'],
  [
    'tags',
    TagsPage,
    '/tags',
    'No tags yet. Tags label links: a link holds up to 20, and the list of links filters by them.',
    'New tag',
  ],
  ['utm-templates', UtmTemplatesPage, '/utm-templates', 'No UTM templates yet.', 'New template'],
  ['domains', DomainsPage, '/domains', 'No domains yet.', 'New domain'],
  ['pixels', PixelsPage, '/pixels', 'No pixels yet.', 'New pixel'],
  ['keys', KeysPage, '/keys', 'No keys yet.', 'New key'],
  ['webhooks', WebhooksPage, '/webhooks', 'No webhooks yet.', 'New webhook'],
];

describe.each(SCREENS)('the %s list, empty', (_name, Page, path, empty, create) => {
  it('says there is nothing yet, once, with a way to make the first', async () => {
    await renderSignedIn(<Page />, { routes: NOTHING, path });

    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(screen.queryByText('Nothing matches.')).not.toBeInTheDocument();
    // The page's own create button, and the same action where the list would be.
    expect(screen.getAllByRole('button', { name: create })).toHaveLength(2);
  });

  it('says nothing matches a search, once, with a way back to the whole list', async () => {
    const { api, location } = await renderSignedIn(<Page />, { routes: NOTHING, path: `${path}?search=zzz` });

    expect(await screen.findByText('Nothing matches.')).toBeInTheDocument();
    expect(screen.getAllByText('Nothing matches.')).toHaveLength(1);
    expect(screen.queryByText(empty)).not.toBeInTheDocument();

    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe(path));
    await waitFor(() => {
      const last = api.requests.filter((request) => request.url.pathname === `/api/v1${path}`).at(-1);
      expect(last?.url.searchParams.has('search')).toBe(false);
    });
  });
});
