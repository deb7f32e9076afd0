import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../src/api/session';
import { App } from '../src/app/App';
import { Shell } from '../src/app/Shell';
import { json, listOf, mockApi } from './api';
import { link, person, session, userSession } from './fixtures';
import { renderSignedIn } from './render';

const MARKETING = { id: 1, name: 'Marketing', role: 'owner' as const };
const SALES = { id: 2, name: 'Sales', role: 'viewer' as const };

const navEntries = () =>
  within(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list'))
    .getAllByRole('link')
    .map((entry) => entry.textContent);

describe('the top bar', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/app/links');
  });

  it("names a person, links to their profile, and shows their role's screens", async () => {
    await renderSignedIn(
      <Shell>
        <h1>Home</h1>
      </Shell>,
      { session: userSession('viewer') },
    );

    expect(screen.getByRole('link', { name: 'Ann Lee, your profile' })).toHaveAttribute('href', '/profile');
    expect(navEntries()).toEqual([
      'Links',
      'Analytics',
      'Spaces',
      'Tags',
      'UTM templates',
      'Domains',
      'Pixels',
      'Import and export',
      'Members',
      'Account',
    ]);
    // One workspace: nothing to switch to.
    expect(screen.queryByLabelText('Workspace')).not.toBeInTheDocument();
  });

  it('names the key of a key’s session, which has no profile', async () => {
    await renderSignedIn(
      <Shell>
        <h1>Home</h1>
      </Shell>,
      { session: session() },
    );

    expect(screen.getByText('Key: Laptop')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /your profile/ })).not.toBeInTheDocument();
  });

  it('switches to another workspace, and loads the screen again for it', async () => {
    let current: Session = userSession('owner', [MARKETING, SALES]);
    const api = mockApi({
      'GET /api/v1/session': () => json(200, { data: current }),
      'PUT /api/v1/session': () => {
        current = { ...userSession('viewer', [MARKETING, SALES]), workspace: SALES };
        return json(200, { data: current, status: 200 });
      },
      'GET /api/v1/links': listOf([link()]),
    });
    const user = userEvent.setup({ delay: null });
    render(<App />);
    await screen.findByRole('table', { name: 'Links' });
    expect(screen.getByRole('link', { name: 'Audit log' })).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Workspace'), 'Sales');

    expect(await screen.findByText('Now working in Sales')).toBeInTheDocument();
    expect(api.to('PUT', '/api/v1/session')[0]?.body).toBe('{"workspace_id":2}');
    await waitFor(() => expect(api.to('GET', '/api/v1/links')).toHaveLength(2));
    expect(screen.getByLabelText('Workspace')).toHaveValue('2');
    expect(screen.queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
    expect(window.location.pathname).toBe('/app/links');
  });

  it('sends a person whom the workspace asks for a second factor to their profile, saying why', async () => {
    window.history.replaceState(null, '', '/app');
    mockApi({
      'GET /api/v1/session': () => json(200, { data: { ...userSession('editor'), scopes: [] } }),
      'GET /api/v1/user': () =>
        json(200, {
          data: { ...person, two_factor: 0, created_at: link().created_at, updated_at: link().created_at },
          status: 200,
        }),
      'GET /api/v1/user/sessions': () => json(200, { data: [], status: 200 }),
      'GET /api/v1/user/passkeys': () => json(200, { data: [], status: 200 }),
    });
    render(<App />);

    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/app/profile');
    expect(screen.getByText(/asks every member to sign in with a second factor/)).toBeInTheDocument();
    expect(
      within(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('list')).queryAllByRole(
        'link',
      ),
    ).toEqual([]);
  });
});
