import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import DomainsPage from '../src/features/domains/DomainsPage';
import { json, listOf } from './api';
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

describe("a domain's apps' files", () => {
  it('sends the documents typed for a domain, and shows a refusal beside its field', async () => {
    const aasa = '{"applinks": {"details": []}}';
    let answer = json(422, {
      message: { assetlinks: ['The assetlinks field must be a JSON object or list.'] },
      status: 422,
    });
    const { api } = await renderSignedIn(<DomainsPage />, {
      path: '/domains',
      routes: {
        'GET /api/v1/domains': listOf([domain, otherDomain]),
        'GET /api/v1/account': { data: account, status: 200 },
        'PUT /api/v1/domains/:id': () => answer,
      },
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit go.example.com' }));
    const dialog = await screen.findByRole('dialog');
    const apple = within(dialog).getByLabelText('Served at /.well-known/apple-app-site-association');
    const android = within(dialog).getByLabelText('Served at /.well-known/assetlinks.json');
    fireEvent.change(apple, { target: { value: aasa } });
    fireEvent.change(android, { target: { value: '[' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(
      await within(dialog).findByText('The assetlinks field must be a JSON object or list.'),
    ).toBeInTheDocument();
    expect(android).toHaveAttribute('aria-invalid', 'true');
    const sent = JSON.parse(api.to('PUT', '/api/v1/domains/2')[0]?.body ?? 'null') as Record<string, unknown>;
    expect(sent).toMatchObject({ apple_app_site_association: aasa, assetlinks: '[' });

    answer = json(200, { data: { ...otherDomain, apple_app_site_association: aasa }, status: 200 });
    fireEvent.change(android, { target: { value: '' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PUT', '/api/v1/domains/2')).toHaveLength(2));
    const second = JSON.parse(api.to('PUT', '/api/v1/domains/2')[1]?.body ?? 'null') as Record<
      string,
      unknown
    >;
    expect(second).toMatchObject({ apple_app_site_association: aasa, assetlinks: null });
  });
});
