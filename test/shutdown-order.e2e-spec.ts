import { DataSource } from 'typeorm';
import { ClickWriter } from '../src/clicks/click-writer';
import { ChangeFeed } from '../src/database/change-feed';
import { TitleFetcher } from '../src/links/title-fetcher';
import { createTestApp } from './support/app';

describe('shutdown order', () => {
  it('lets every user of the database finish before the data source is destroyed', async () => {
    const t = await createTestApp();
    const steps: string[] = [];
    const dataSource = t.app.get(DataSource);
    const users = [
      ['clicks written', t.app.get(ClickWriter)],
      ['title fetches settled', t.app.get(TitleFetcher)],
      ['change feed stopped', t.app.get(ChangeFeed)],
    ] as const;
    for (const [step, user] of users) {
      const finish = user.beforeApplicationShutdown.bind(user);
      jest.spyOn(user, 'beforeApplicationShutdown').mockImplementation(async () => {
        await finish();
        // The database still answers once each has finished.
        await dataSource.query('SELECT 1');
        steps.push(step);
      });
    }
    const destroy = dataSource.destroy.bind(dataSource);
    jest.spyOn(dataSource, 'destroy').mockImplementation(async () => {
      steps.push('data source destroyed');
      await destroy();
    });

    await t.close();

    expect(steps.slice(0, 3).sort()).toEqual([
      'change feed stopped',
      'clicks written',
      'title fetches settled',
    ]);
    expect(steps.slice(3)).toEqual(['data source destroyed']);
    expect(dataSource.isInitialized).toBe(false);
  });
});
