import { createAccount, createTestApp, type TestApp } from './support/app';
import { memoryDatabase, type ScratchDatabase } from './support/scratch-database';

/**
 * The busiest statements are prepared by name on each connection. Connections that share one session, as those
 * to an embedded database served over its socket do, cannot each prepare the same name: the statements then run
 * unnamed, and no request fails for it.
 */
describe('prepared statements on connections that share one session', () => {
  let scratch: ScratchDatabase;
  let t: TestApp;

  beforeAll(async () => {
    scratch = await memoryDatabase();
    t = await createTestApp({ DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: '4' });
  });
  afterAll(async () => {
    await t?.close();
    await scratch?.drop();
  });

  it('answers requests made at once over several connections', async () => {
    const account = await createAccount(t);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        t
          .http()
          .post('/api/v1/links')
          .set('Authorization', account.auth)
          .send({ url: `https://example.com/${n}` }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(12).fill(201));
    const listed = await t.http().get('/api/v1/links').set('Authorization', account.auth);
    expect(listed.body.meta.total).toBe(12);
  });
});
