import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AccountPage from '../src/features/account/AccountPage';
import { account, domain } from './fixtures';
import { renderSignedIn } from './render';

describe('the account page', () => {
  it('names the default domain by its host name', async () => {
    await renderSignedIn(<AccountPage />, {
      path: '/account',
      routes: {
        'GET /api/v1/account': { data: account, status: 200 },
        'GET /api/v1/domains/:id': { data: domain, status: 200 },
      },
    });

    const term = await screen.findByText('Default domain');
    expect(await screen.findByText('sho.rt')).toBe(term.nextElementSibling);
  });
});
