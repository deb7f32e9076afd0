import { createAccount, createTestApp, type TestApp } from './support/app';
import { apiClient } from './support/api';

describe('smoke', () => {
  let t: TestApp;
  const { call } = apiClient(() => t);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates and lists a space', async () => {
    const account = await createAccount(t);
    const created = await call(account, 'post', '/api/v1/spaces').type('form').send({ name: 'A' });
    expect(created.status).toBe(201);
    const list = await call(account, 'get', '/api/v1/spaces');
    expect(list.body.data).toHaveLength(1);
  });
});
