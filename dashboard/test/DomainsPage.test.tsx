import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import DomainsPage from '../src/features/domains/DomainsPage';
import { listOf } from './api';
import { account, domain, otherDomain, session } from './fixtures';
import { renderSignedIn } from './render';

const rowOf = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;

describe('the domains list', () => {
  it("offers no Edit or Delete on the service's own domain, which no account may change", async () => {
    await renderSignedIn(<DomainsPage />, {
      path: '/domains',
      routes: {
        'GET /api/v1/domains': listOf([domain, otherDomain]),
        'GET /api/v1/account': { data: account, status: 200 },
      },
    });

    const own = await rowOf('sho.rt');
    expect(await within(own).findByText('Shared by every account')).toBeInTheDocument();
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    const custom = await rowOf('go.example.com');
    expect(within(custom).getByRole('button', { name: 'Edit go.example.com' })).toBeInTheDocument();
    expect(within(custom).getByRole('button', { name: 'Delete go.example.com' })).toBeInTheDocument();
  });

  it('goes by the host the dashboard is served from when the key cannot read the account', async () => {
    const served = { ...otherDomain, id: 9, name: window.location.host, url: window.location.origin };
    await renderSignedIn(<DomainsPage />, {
      path: '/domains',
      session: session(['domains.write']),
      routes: { 'GET /api/v1/domains': listOf([served, otherDomain]) },
    });

    const own = await rowOf(window.location.host);
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    expect(within(await rowOf('go.example.com')).getAllByRole('button')).toHaveLength(2);
  });
});
