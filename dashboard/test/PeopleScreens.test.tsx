import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import type { Session } from '../src/api/session';
import { json, listOf, mockApi, type Handler, type Routes } from './api';
import { link, userSession } from './fixtures';

const SIGNED_OUT = () => json(401, { message: 'Unauthenticated.', status: 401 });

/** The app opened at `address`; the session is `session` from the start, or once a route answers 201 with one. */
function openApp(address: string, routes: Routes, session: Session | null = null) {
  let current = session;
  const signIns = (answer: Routes[string]): Routes[string] =>
    typeof answer === 'function'
      ? async (request) => {
          const response = await (answer as Handler)(request);
          if (response.status === 201) current = userSession();
          return response;
        }
      : answer;
  window.history.replaceState(null, '', address);
  const api = mockApi({
    'GET /api/v1/session': () => (current ? json(200, { data: current }) : SIGNED_OUT()),
    'GET /api/v1/links': listOf([link()]),
    ...Object.fromEntries(Object.entries(routes).map(([route, answer]) => [route, signIns(answer)])),
  });
  const user = userEvent.setup({ delay: null });
  render(<App />);
  return { api, user };
}

const bodyOf = (request: { body: string | null } | undefined): unknown => JSON.parse(request?.body ?? '');
const made = () => json(201, { data: userSession(), status: 200 });

describe('accepting an invitation', () => {
  it('makes the newcomer with a name and a password, then opens the app', async () => {
    const { api, user } = openApp('/app/accept-invitation?token=lsi_abc', {
      'POST /api/v1/invitations/accept': made,
    });

    await screen.findByRole('heading', { name: 'Join a workspace' });
    await user.type(screen.getByLabelText('Your name'), 'Bo Chen');
    await user.type(screen.getByLabelText('New password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    expect(bodyOf(api.to('POST', '/api/v1/invitations/accept')[0])).toEqual({
      token: 'lsi_abc',
      name: 'Bo Chen',
      password: 'correct horse battery',
    });
    expect(window.location.pathname).toBe('/app/links');
  });

  it("asks for an email when the link names none (the first owner's), then sends it", async () => {
    const { api, user } = openApp('/app/accept-invitation?token=lsi_first', {
      'POST /api/v1/invitations/accept': (request) =>
        (bodyOf(request) as { email?: string }).email === undefined
          ? json(422, { message: { email: ['The email field is required.'] }, status: 422 })
          : made(),
    });

    await user.type(await screen.findByLabelText('Your name'), 'Ann Lee');
    await user.type(screen.getByLabelText('New password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));

    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAccessibleDescription(/names no email/);
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.type(email, 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    expect(bodyOf(api.to('POST', '/api/v1/invitations/accept').at(-1))).toEqual({
      token: 'lsi_first',
      name: 'Ann Lee',
      password: 'correct horse battery',
      email: 'ann@example.com',
    });
  });

  it('says why a used or expired link is refused, and a short password beside its field', async () => {
    let tries = 0;
    const { user } = openApp('/app/accept-invitation?token=lsi_old', {
      'POST /api/v1/invitations/accept': () => {
        tries += 1;
        return tries === 1
          ? json(422, {
              message: { password: ['The password must be at least 10 characters.'] },
              status: 422,
            })
          : json(422, { message: { token: ['The invitation is invalid or has expired.'] }, status: 422 });
      },
    });

    await user.type(await screen.findByLabelText('Your name'), 'Bo');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    const password = screen.getByLabelText('New password');
    await waitFor(() => expect(password).toHaveAccessibleDescription(/at least 10 characters/));
    expect(password).toHaveFocus();

    await user.type(password, ' and longer');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByText('The invitation is invalid or has expired.')).toBeInTheDocument();
  });

  it('lets someone signed in join with their account: the token alone', async () => {
    const joined = { ...userSession(), workspace: { id: 4, name: 'Sales', role: 'editor' as const } };
    const { api, user } = openApp(
      '/app/accept-invitation?token=lsi_join',
      { 'POST /api/v1/invitations/accept': () => json(201, { data: joined, status: 200 }) },
      userSession(),
    );

    expect(await screen.findByText(/You are signed in as Ann Lee/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Join the workspace' }));

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    expect(bodyOf(api.to('POST', '/api/v1/invitations/accept')[0])).toEqual({ token: 'lsi_join' });
  });

  it('signs in first in place for someone who has an account, then offers to join', async () => {
    const { user } = openApp('/app/accept-invitation?token=lsi_mine', {
      'POST /api/v1/session': made,
    });

    await user.click(await screen.findByRole('button', { name: 'Sign in first' }));
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('button', { name: 'Join the workspace' })).toBeInTheDocument();
    expect(window.location.search).toBe('?token=lsi_mine');
  });
});

describe('a forgotten password', () => {
  it('is asked for from the sign-in screen, with the same answer whatever the email', async () => {
    const { api, user } = openApp('/app', {
      'POST /api/v1/password/forgot': () => json(202, { message: 'If that email…', status: 202 }),
    });

    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await screen.findByRole('heading', { name: 'Reset your password' });
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));

    expect(await screen.findByText(/a link to reset its password is on its way/)).toHaveAttribute(
      'role',
      'status',
    );
    expect(bodyOf(api.to('POST', '/api/v1/password/forgot')[0])).toEqual({ email: 'ann@example.com' });
    await user.click(screen.getByRole('link', { name: 'Back to sign-in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('is reset with the link’s token, and the sign-in screen then says so', async () => {
    const { api, user } = openApp('/app/reset-password?token=lsr_abc', {
      'POST /api/v1/password/reset': () =>
        json(200, { message: 'Your password has been reset.', status: 200 }),
    });

    await user.type(await screen.findByLabelText('New password'), 'a new long password');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));

    expect(
      await screen.findByText('Your password is changed. Sign in with the new one.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/app/');
    expect(bodyOf(api.to('POST', '/api/v1/password/reset')[0])).toEqual({
      token: 'lsr_abc',
      password: 'a new long password',
    });
  });

  it('says when the link no longer works, with a way to ask for another', async () => {
    const { user } = openApp('/app/reset-password?token=lsr_used', {
      'POST /api/v1/password/reset': () =>
        json(422, {
          message: { token: ['This password reset link is invalid or has expired.'] },
          status: 422,
        }),
    });

    await user.type(await screen.findByLabelText('New password'), 'a new long password');
    await user.click(screen.getByRole('button', { name: 'Set the password' }));

    const alerts = await screen.findAllByRole('alert');
    const refusal = alerts.find((alert) => alert.textContent?.includes('invalid or has expired'));
    expect(refusal).toBeDefined();
    expect(within(refusal!).getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/app/forgot-password',
    );
  });
});

describe('a registration', () => {
  it('makes the account and its workspace, signed in', async () => {
    const { api, user } = openApp('/app', {
      'GET /api/v1/session/providers': { data: { oidc: 0, registration: 1 } },
      'POST /api/v1/users': made,
    });

    await user.click(await screen.findByRole('link', { name: 'Create an account' }));
    await user.type(await screen.findByLabelText('Your name'), 'Cy Diaz');
    await user.type(screen.getByLabelText('Email'), 'cy@example.com');
    await user.type(screen.getByLabelText('New password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Create the account' }));

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    expect(bodyOf(api.to('POST', '/api/v1/users')[0])).toEqual({
      name: 'Cy Diaz',
      email: 'cy@example.com',
      password: 'correct horse battery',
    });
  });
});
