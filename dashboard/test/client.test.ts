import { describe, expect, it, vi } from 'vitest';
import { api, call, onSignedOut, SESSION_HEADER } from '../src/api/client';
import { ApiError } from '../src/api/errors';
import { createSession, endSession, readSession } from '../src/api/session';
import { json, listOf, mockApi } from './api';
import { link, session } from './fixtures';

describe('the API client', () => {
  it('sends the same-origin header and the cookie with every request, and never an Authorization header', async () => {
    const { requests } = mockApi({
      'GET /api/v1/links': listOf([link()]),
      'DELETE /api/v1/links/:id': { deleted: true },
    });

    await call(api.GET('/api/v1/links', { params: { query: { per_page: 10 } } }));
    await call(
      api.DELETE('/api/v1/links/{id}', {
        params: { path: { id: 5 } },
        headers: { Authorization: 'Bearer leaked' },
      }),
    );

    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.headers.get(SESSION_HEADER)).toBe('1');
      expect(request.headers.has('Authorization')).toBe(false);
      expect(request.credentials).toBe('same-origin');
    }
    expect(requests[0]?.url.searchParams.get('per_page')).toBe('10');
  });

  it('reports a 401 as signed out, and throws it as an ApiError', async () => {
    mockApi({ 'GET /api/v1/links': () => json(401, { message: 'Unauthenticated.', status: 401 }) });
    const listener = vi.fn();
    const stop = onSignedOut(listener);

    await expect(call(api.GET('/api/v1/links'))).rejects.toMatchObject({
      status: 401,
      message: 'Unauthenticated.',
    });
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });

  it('does not report other failures as signed out', async () => {
    mockApi({
      'GET /api/v1/links': () => json(403, { message: 'This action is unauthorized.', status: 403 }),
    });
    const listener = vi.fn();
    const stop = onSignedOut(listener);

    await expect(call(api.GET('/api/v1/links'))).rejects.toBeInstanceOf(ApiError);
    expect(listener).not.toHaveBeenCalled();
    stop();
  });

  it("reads a 422's field messages from the contract's body, nested names included", async () => {
    mockApi({
      'POST /api/v1/links': () =>
        json(422, {
          message: { url: ['The url field is required.'], 'targets.0.key': ['Invalid key.'] },
          status: 422,
        }),
    });

    const error = await call(api.POST('/api/v1/links', { body: { url: '' } })).catch(
      (failure: unknown) => failure,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fields).toEqual({
      url: ['The url field is required.'],
      'targets.0.key': ['Invalid key.'],
    });
  });

  it('reads a 422 that puts its fields in `errors` beside a text message', async () => {
    mockApi({
      'POST /api/v1/spaces': () =>
        json(422, { message: 'The given data was invalid.', errors: { name: ['Taken.'] } }),
    });

    const error = (await call(api.POST('/api/v1/spaces', { body: { name: 'x' } })).catch(
      (e: unknown) => e,
    )) as ApiError;

    expect(error.message).toBe('The given data was invalid.');
    expect(error.fields).toEqual({ name: ['Taken.'] });
  });

  it('turns a request that got no answer into status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    await expect(call(api.GET('/api/v1/links'))).rejects.toMatchObject({ status: 0 });
  });
});

describe('the session routes', () => {
  it('send the key once, as a Bearer header with no body, to POST /api/v1/session', async () => {
    const { requests } = mockApi({ 'POST /api/v1/session': () => json(201, { data: session() }) });

    const opened = await createSession('lsk_secret');

    expect(opened.key?.prefix).toBe('lsk_abcd');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.get('Authorization')).toBe('Bearer lsk_secret');
    expect(requests[0]?.headers.get(SESSION_HEADER)).toBe('1');
    expect(requests[0]?.body).toBe('');
    expect(requests[0]?.credentials).toBe('same-origin');
  });

  it('refuse a wrong key with its status', async () => {
    mockApi({ 'POST /api/v1/session': () => json(401, { message: 'Unauthenticated.', status: 401 }) });

    await expect(createSession('wrong')).rejects.toMatchObject({ status: 401 });
  });

  it('read the session from the cookie, null when there is none', async () => {
    const { requests } = mockApi({
      'GET /api/v1/session': () => json(401, { message: 'Unauthenticated.', status: 401 }),
    });

    await expect(readSession()).resolves.toBeNull();
    expect(requests[0]?.headers.get(SESSION_HEADER)).toBe('1');
    expect(requests[0]?.headers.has('Authorization')).toBe(false);
  });

  it('end the session with DELETE', async () => {
    const { to } = mockApi({
      'DELETE /api/v1/session': () => json(200, { id: 4, object: 'session', deleted: true, status: 200 }),
    });

    await endSession();

    expect(to('DELETE', '/api/v1/session')).toHaveLength(1);
  });
});
