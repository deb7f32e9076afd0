import { createAccount, createTestApp, type TestApp } from './support/app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates and lists a space', async () => {
    const account = await createAccount(t);
    const created = await t
      .http()
      .post('/api/v1/spaces')
      .set('Authorization', account.auth)
      .type('form')
      .send({ name: 'A' });
    expect(created.status).toBe(201);
    const list = await t.http().get('/api/v1/spaces').set('Authorization', account.auth);
    expect(list.body.data).toHaveLength(1);
  });
});
