import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { notifySignedOut } from '../src/api/client';
import { App } from '../src/app/App';
import { json, listOf, mockApi } from './api';
import { link, session } from './fixtures';

const KEY = 'lsk_0123456789abcdefghijklmnopqrstuvwxyz';
const SIGNED_OUT = () => json(401, { message: 'Unauthenticated.', status: 401 });

/** The key's field, one click away from the sign-in screen's email and password. */
async function keyField(user: ReturnType<typeof userEvent.setup>): Promise<HTMLElement> {
  await user.click(await screen.findByRole('button', { name: 'Sign in with an API key' }));
  const input = screen.getByLabelText('API key');
  expect(input).toHaveFocus();
  return input;
}

/** Everything the page could have kept: storage, the document, the cookie jar visible to scripts. */
function everythingKept(): string {
  return [
    JSON.stringify({ ...localStorage }),
    JSON.stringify({ ...sessionStorage }),
    document.documentElement.outerHTML,
    document.cookie,
  ].join('\n');
}

describe('signing in with an API key', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/app/links');
  });

  it('sends the key once as a Bearer header, keeps the key nowhere, and then uses the cookie', async () => {
    let signedIn = false;
    const api = mockApi({
      'GET /api/v1/session': () =>
        signedIn ? json(200, { data: session() }) : json(401, { message: 'Unauthenticated.', status: 401 }),
      'POST /api/v1/session': () => {
        signedIn = true;
        return json(201, { data: session() });
      },
      'GET /api/v1/links': listOf([link()]),
      'GET /api/v1/spaces': listOf([]),
      'GET /api/v1/domains': listOf([]),
      'GET /api/v1/pixels': listOf([]),
    });
    const user = userEvent.setup({ delay: null });
    render(<App />);

    await user.type(await keyField(user), KEY);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    const posts = api.to('POST', '/api/v1/session');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers.get('Authorization')).toBe(`Bearer ${KEY}`);
    expect(posts[0]?.body).toBe('');

    const after = api.requests.slice(api.requests.indexOf(posts[0]!) + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const request of after) {
      expect(request.headers.has('Authorization')).toBe(false);
      expect(request.headers.get('X-Shortlink-Session')).toBe('1');
    }
    expect(everythingKept()).not.toContain(KEY);
  });

  it('says where a key comes from: printed at the first start, or made by the CLI', async () => {
    mockApi({ 'GET /api/v1/session': SIGNED_OUT });
    render(<App />);

    const input = await keyField(userEvent.setup({ delay: null }));
    expect(input).toHaveAccessibleDescription(/prints one once, at its first start/);
    expect(input).toHaveAccessibleDescription(/npm run cli -- key:create --account 1/);
  });

  it('says when a key is refused, the key left in the field to mend and kept nowhere else', async () => {
    mockApi({
      'GET /api/v1/session': () => json(401, { message: 'Unauthenticated.', status: 401 }),
      'POST /api/v1/session': () => json(401, { message: 'Unauthenticated.', status: 401 }),
    });
    const user = userEvent.setup({ delay: null });
    render(<App />);

    const input = await keyField(user);
    await user.type(input, 'lsk_wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('This key was not accepted');
    expect(input).toHaveValue('lsk_wrong');
    expect(input).toHaveFocus();
    expect(everythingKept()).not.toContain('lsk_wrong');
  });

  it('shows the app at once for a session the cookie still holds', async () => {
    const api = mockApi({
      'GET /api/v1/session': () => json(200, { data: session() }),
      'GET /api/v1/links': listOf([link()]),
    });
    render(<App />);

    expect(await screen.findByRole('table', { name: 'Links' })).toBeInTheDocument();
    expect(api.to('POST', '/api/v1/session')).toHaveLength(0);
  });

  it('goes back to sign-in with a message when the API answers 401 while signed in', async () => {
    mockApi({
      'GET /api/v1/session': () => json(200, { data: session() }),
      'GET /api/v1/links': listOf([link()]),
    });
    render(<App />);
    await screen.findByRole('table', { name: 'Links' });

    notifySignedOut();

    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByText('Your session has ended. Sign in again to go on.')).toBeInTheDocument();
  });

  it('a list answered 401 (a revoked key) signs out', async () => {
    mockApi({
      'GET /api/v1/session': () => json(200, { data: session() }),
      'GET /api/v1/links': () => json(401, { message: 'Unauthenticated.', status: 401 }),
    });
    render(<App />);

    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByText('Your session has ended. Sign in again to go on.')).toBeInTheDocument();
  });

  it('signs out with DELETE /api/v1/session', async () => {
    const api = mockApi({
      'GET /api/v1/session': () => json(200, { data: session() }),
      'DELETE /api/v1/session': () => json(200, { id: 4, object: 'session', deleted: true, status: 200 }),
      'GET /api/v1/links': listOf([]),
    });
    const user = userEvent.setup({ delay: null });
    render(<App />);
    await screen.findByRole('heading', { name: 'Links' });

    await user.click(screen.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByText('You are signed out.')).toBeInTheDocument();
    await waitFor(() => expect(api.to('DELETE', '/api/v1/session')).toHaveLength(1));
  });
});
