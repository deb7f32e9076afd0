import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/app/App';
import { json, listOf, mockApi, type Handler, type Routes } from './api';
import { link, userSession } from './fixtures';

const { startAuthentication } = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication, startRegistration: vi.fn() }));

const SIGNED_OUT = () => json(401, { message: 'Unauthenticated.', status: 401 });
const WRONG = { message: { email: ['These credentials do not match our records.'] }, status: 422 };

/** The app signed out at /app/links, the sign-in answered by `post`; once it succeeds, the session is a person's. */
function signedOutApp(post: Handler, routes: Routes = {}) {
  let signedIn = false;
  const api = mockApi({
    'GET /api/v1/session': () => (signedIn ? json(200, { data: userSession() }) : SIGNED_OUT()),
    'POST /api/v1/session': async (request) => {
      const answer = await post(request);
      if (answer.status === 201) signedIn = true;
      return answer;
    },
    'GET /api/v1/links': listOf([link()]),
    ...routes,
  });
  const user = userEvent.setup({ delay: null });
  render(<App />);
  return { api, user };
}

async function fillIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('signing in with an email and a password', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/app/links');
  });

  it('sends them as JSON without a key, then shows the app with the person named, their profile a click away', async () => {
    const { api, user } = signedOutApp(() => json(201, { data: userSession(), status: 200 }));

    await fillIn(user, 'ann@example.com', 'correct horse battery');

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    const [post] = api.to('POST', '/api/v1/session');
    expect(JSON.parse(post?.body ?? '')).toEqual({
      email: 'ann@example.com',
      password: 'correct horse battery',
    });
    expect(post?.headers.has('Authorization')).toBe(false);
    expect(post?.headers.get('X-Shortlink-Session')).toBe('1');
    expect(screen.getByRole('link', { name: 'Ann Lee, your profile' })).toHaveAttribute(
      'href',
      '/app/profile',
    );
  });

  it('says beside the email that the credentials do not match, and focuses it', async () => {
    const { user } = signedOutApp(() => json(422, WRONG));

    await fillIn(user, 'ann@example.com', 'not the password');

    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('These credentials do not match our records.');
    expect(screen.getByLabelText('Password')).toHaveValue('not the password');
  });

  it('asks for the authentication code when two-factor is on, and sends it with the password', async () => {
    const { api, user } = signedOutApp((request) => {
      const body = JSON.parse(request.body ?? '{}') as { otp?: string };
      if (body.otp === undefined)
        return json(422, { message: { otp: ['The otp field is required.'] }, status: 422 });
      if (body.otp !== '123456')
        return json(422, { message: { otp: ['The code is not valid.'] }, status: 422 });
      return json(201, { data: userSession(), status: 200 });
    });

    await fillIn(user, 'ann@example.com', 'correct horse battery');

    // The next step, not a mistake: the field appears focused, with what to type and no error.
    const code = await screen.findByLabelText('Authentication code');
    await waitFor(() => expect(code).toHaveFocus());
    expect(code).toHaveAccessibleDescription(
      /6-digit code of your authenticator app, or one of your recovery codes/,
    );
    expect(code).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The code is not valid.')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    const posts = api.to('POST', '/api/v1/session').map((request): unknown => JSON.parse(request.body ?? ''));
    expect(posts.at(-1)).toEqual({
      email: 'ann@example.com',
      password: 'correct horse battery',
      otp: '123456',
    });
  });

  it('says how long to wait after too many attempts', async () => {
    const { user } = signedOutApp(
      () =>
        new Response(JSON.stringify({ message: 'Too Many Attempts.', status: 429 }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'Retry-After': '30' },
        }),
    );

    await fillIn(user, 'ann@example.com', 'whatever it is');

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Try again in 30 seconds.');
  });

  it('offers SSO and a registration only where the service has them', async () => {
    signedOutApp(() => json(422, WRONG), {
      'GET /api/v1/session/providers': { data: { oidc: 1, registration: 1 } },
    });

    const others = await screen.findByRole('navigation', { name: 'Other ways to sign in' });
    expect(await within(others).findByRole('link', { name: 'Sign in with SSO' })).toHaveAttribute(
      'href',
      '/api/v1/session/oidc',
    );
    expect(within(others).getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/app/register',
    );
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/app/forgot-password',
    );
  });

  it('offers neither when the service does not say (404), nor a passkey without WebAuthn', async () => {
    const { api } = signedOutApp(() => json(422, WRONG));

    const others = await screen.findByRole('navigation', { name: 'Other ways to sign in' });
    await waitFor(() => expect(api.to('GET', '/api/v1/session/providers')).toHaveLength(1));
    expect(
      within(others)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Sign in with an API key']);
    expect(within(others).queryByRole('link')).not.toBeInTheDocument();
  });

  it('signs in with a passkey where the browser has WebAuthn', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const assertion = { id: 'cred-1', type: 'public-key', response: {} };
    startAuthentication.mockResolvedValue(assertion);
    const { api, user } = signedOutApp(() => json(422, WRONG), {
      'POST /api/v1/session/passkey/options': () =>
        json(200, { data: { challenge_id: 9, options: { challenge: 'abc' } } }),
      'POST /api/v1/session/passkey': () => json(201, { data: userSession(), status: 200 }),
    });

    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'abc' } });
    const [sent] = api.to('POST', '/api/v1/session/passkey');
    expect(JSON.parse(sent?.body ?? '')).toEqual({ challenge_id: 9, response: assertion });
  });

  it('says so when the passkey prompt is closed', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    startAuthentication.mockRejectedValue(
      new DOMException('The operation was cancelled.', 'NotAllowedError'),
    );
    const { user } = signedOutApp(() => json(422, WRONG), {
      'POST /api/v1/session/passkey/options': () =>
        json(200, { data: { challenge_id: 9, options: { challenge: 'abc' } } }),
    });

    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('No passkey was used');
  });
});
