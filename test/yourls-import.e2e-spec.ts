import { randomBytes } from 'node:crypto';
import { createConnection, type Connection } from 'mysql2/promise';
import { apiClient } from './support/api';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { sleep } from './support/sleep';
import { UA } from './support/visitors';

/** The MariaDB or MySQL server of these tests: IMPORT_TEST_MYSQL_URL, as CI sets it. Without it they are skipped. */
const serverUrl = process.env.IMPORT_TEST_MYSQL_URL?.trim() ?? '';
const describeWithMysql = serverUrl === '' ? describe.skip : describe;
if (serverUrl === '') {
  process.stderr.write(
    'skipped without IMPORT_TEST_MYSQL_URL (a MariaDB server, such as mysql://root@127.0.0.1:3306)\n',
  );
}

/** YOURLS' own tables, as its installer makes them (`includes/functions-install.php`), with a prefix. */
function yourlsTables(prefix: string): string[] {
  return [
    `CREATE TABLE \`${prefix}url\` (
       \`keyword\` varchar(100) BINARY NOT NULL,
       \`url\` text BINARY NOT NULL,
       \`title\` text CHARACTER SET utf8mb4,
       \`timestamp\` timestamp NOT NULL DEFAULT current_timestamp(),
       \`ip\` varchar(41) NOT NULL,
       \`clicks\` int(10) unsigned NOT NULL,
       PRIMARY KEY (\`keyword\`), KEY \`ip\` (\`ip\`), KEY \`timestamp\` (\`timestamp\`)
     ) DEFAULT CHARSET=utf8mb4`,
    `CREATE TABLE \`${prefix}log\` (
       \`click_id\` int(11) NOT NULL AUTO_INCREMENT,
       \`click_time\` datetime NOT NULL,
       \`shorturl\` varchar(100) BINARY NOT NULL,
       \`referrer\` varchar(200) NOT NULL,
       \`user_agent\` varchar(255) NOT NULL,
       \`ip_address\` varchar(41) NOT NULL,
       \`country_code\` char(2) NOT NULL,
       PRIMARY KEY (\`click_id\`), KEY \`shorturl\` (\`shorturl\`)
     ) DEFAULT CHARSET=utf8mb4`,
  ];
}

/**
 * An import from YOURLS' tables in a real MariaDB (contract §12): links with their titles and creation times, and
 * each logged visit as a click, profiled as live visits are; bots and `javascript:` targets left out; a second
 * run creates nothing; the credentials appear nowhere in the answers.
 */
describeWithMysql('import from YOURLS tables in MariaDB', () => {
  let target: TestApp;
  let admin: Connection;
  const database = `yourls_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const user = `yourls_reader_${randomBytes(3).toString('hex')}`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const api = apiClient(() => target);

  beforeAll(async () => {
    admin = await createConnection({ uri: serverUrl, multipleStatements: false });
    await admin.query(`CREATE DATABASE \`${database}\``);
    await admin.query(`CREATE USER '${user}'@'%' IDENTIFIED BY '${password}'`);
    await admin.query(`GRANT SELECT ON \`${database}\`.* TO '${user}'@'%'`);
    await admin.changeUser({ database });
    for (const prefix of ['yourls_', 'short_'])
      for (const sql of yourlsTables(prefix)) await admin.query(sql);
    await admin.query(
      `INSERT INTO yourls_url (keyword, url, title, timestamp, ip, clicks) VALUES
         ('guide', 'https://example.com/docs', 'The docs', '2024-03-01 09:30:00', '127.0.0.1', 4),
         ('bad', 'javascript:alert(1)', 'Bad', '2024-03-02 10:00:00', '127.0.0.1', 0),
         ('quiet', 'https://example.com/quiet', '', '2024-03-03 11:00:00', '127.0.0.1', 0)`,
    );
    await admin.query(
      `INSERT INTO yourls_log (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES
         ('2024-03-05 08:15:00', 'guide', 'https://news.example/story', ?, '203.0.113.1', 'GB'),
         ('2024-03-05 08:45:00', 'guide', 'direct', ?, '203.0.113.2', 'GB'),
         ('2024-03-06 20:00:00', 'guide', 'direct', ?, '203.0.113.3', 'DE'),
         ('2024-03-07 12:00:00', 'guide', 'direct', 'Googlebot/2.1 (+http://www.google.com/bot.html)', '66.249.66.1', 'US')`,
      [UA.iPhoneSafari, UA.iPhoneSafari, UA.androidChrome],
    );
    await admin.query(
      `INSERT INTO short_url (keyword, url, title, timestamp, ip, clicks)
       VALUES ('other', 'https://example.com/other', 'Other', '2024-01-01 00:00:00', '127.0.0.1', 0)`,
    );
    target = await createTestApp({ IMPORT_ALLOW_PRIVATE_ADDRESSES: 'true', RATE_LIMIT_PER_MINUTE: '0' });
  }, 60_000);

  afterAll(async () => {
    await target?.close();
    await admin?.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin?.query(`DROP USER IF EXISTS '${user}'@'%'`);
    await admin?.end();
  });

  function databaseUrl(): string {
    const url = new URL(serverUrl);
    url.username = user;
    url.password = password;
    url.pathname = `/${database}`;
    return url.href;
  }

  async function runImport(account: TestAccount, extra: Record<string, unknown> = {}) {
    const created = await api
      .json(account, 'post', '/api/v1/imports', { source: 'yourls', database_url: databaseUrl(), ...extra })
      .expect(202);
    const id = (created.body as { data: { id: number } }).data.id;
    for (let tries = 0; tries < 600; tries += 1) {
      const shown = await api.call(account, 'get', `/api/v1/imports/${id}`).expect(200);
      const body = shown.body as { data: Record<string, unknown> };
      if (!['queued', 'running'].includes(body.data.status as string)) {
        for (const answer of [created.text, shown.text]) expect(answer).not.toContain(password);
        return body.data;
      }
      await sleep(100);
    }
    throw new Error('the import did not end');
  }

  it('brings the links, their titles and times, and each logged visit as a click; a second run creates nothing', async () => {
    const account = await createAccount(target);
    const done = await runImport(account);
    expect(done).toMatchObject({
      status: 'done',
      progress: { links_total: 3, links_done: 3, links_created: 2, links_failed: 1, clicks_imported: 3 },
    });
    expect(done.errors).toEqual([{ item: 'bad', message: expect.stringMatching(/^url: /) as unknown }]);

    const links = (
      (await api.call(account, 'get', '/api/v1/links?sort_by=alias&sort=asc').expect(200)).body as {
        data: {
          id: number;
          alias: string;
          url: string;
          title: string | null;
          clicks: number;
          created_at: string;
        }[];
      }
    ).data;
    expect(
      links.map(({ alias, url, title, clicks, created_at }) => ({ alias, url, title, clicks, created_at })),
    ).toEqual([
      {
        alias: 'guide',
        url: 'https://example.com/docs',
        title: 'The docs',
        clicks: 4,
        created_at: '2024-03-01T09:30:00.000000Z',
      },
      {
        alias: 'quiet',
        url: 'https://example.com/quiet',
        title: null,
        clicks: 0,
        created_at: '2024-03-03T11:00:00.000000Z',
      },
    ]);
    const guide = links[0].id;
    const stats = async (name: string, from = '2024-03-01', to = '2024-03-31') =>
      (
        (
          await api
            .call(account, 'get', `/api/v1/stats/${guide}?name=${name}&from=${from}&to=${to}`)
            .expect(200)
        ).body as { data: unknown }
      ).data;
    expect(await stats('click')).toEqual([
      { value: '2024-03-05', count: 2 },
      { value: '2024-03-06', count: 1 },
    ]);
    expect(await stats('click', '2024-03-05', '2024-03-05')).toEqual([{ value: '2024-03-05 08', count: 2 }]);
    expect(await stats('country')).toEqual([
      { value: 'GB:United Kingdom', count: 2 },
      { value: 'DE:Germany', count: 1 },
    ]);
    expect(await stats('continent')).toEqual([{ value: 'EU', count: 3 }]);
    expect(await stats('operating_system')).toEqual([
      { value: 'iOS', count: 2 },
      { value: 'Android', count: 1 },
    ]);
    expect(await stats('referrer')).toEqual([
      { value: null, count: 2 },
      { value: 'news.example', count: 1 },
    ]);

    const again = await runImport(account);
    expect(again).toMatchObject({
      status: 'done',
      progress: { links_created: 0, links_skipped: 2, links_failed: 1, clicks_imported: 0 },
    });
    expect(await stats('click')).toEqual([
      { value: '2024-03-05', count: 2 },
      { value: '2024-03-06', count: 1 },
    ]);
  }, 60_000);

  it('reads the tables of another prefix', async () => {
    const account = await createAccount(target);
    const done = await runImport(account, { table_prefix: 'short_' });
    expect(done).toMatchObject({ status: 'done', progress: { links_created: 1 } });
  }, 30_000);

  it('fails with the reason when the database refuses, the tables are missing, or the prefix is not one', async () => {
    const account = await createAccount(target);
    const refused = await runImport(account, { database_url: databaseUrl().replace(password, 'wrong') });
    expect(refused).toMatchObject({
      status: 'failed',
      errors: [
        { item: 'source', message: 'the YOURLS database cannot be reached: the credentials were refused' },
      ],
    });
    const missing = await runImport(account, { table_prefix: 'none_' });
    expect(missing).toMatchObject({
      status: 'failed',
      errors: [
        { item: 'source', message: 'the YOURLS database refused a read: no YOURLS tables with that prefix' },
      ],
    });
    await api
      .json(account, 'post', '/api/v1/imports', {
        source: 'yourls',
        database_url: databaseUrl(),
        table_prefix: 'x`;--',
      })
      .expect(422, {
        message: {
          table_prefix: ['The table prefix field must only contain letters, numbers and underscores.'],
        },
        status: 422,
      });
    await api.json(account, 'post', '/api/v1/imports', { source: 'yourls' }).expect(422, {
      message: { database_url: ['The database url field is required.'] },
      status: 422,
    });
  }, 30_000);
});
