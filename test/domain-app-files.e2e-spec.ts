import { randomBytes } from 'node:crypto';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { invalid } from './support/contract';

/**
 * A domain's files for the apps its links open (contract §13): `apple_app_site_association` and `assetlinks`, taken
 * as a string that holds the JSON document (or, in a JSON body, the document itself), checked, answered as text, and
 * served with `Content-Type: application/json` at `/.well-known/...` of that domain alone.
 */
const AASA = {
  applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/item/*' }] }] },
};
const ASSET_LINKS = [
  {
    relation: ['delegate_permission/common.handle_all_urls'],
    target: {
      namespace: 'android_app',
      package_name: 'com.example.app',
      sha256_cert_fingerprints: ['AB:CD'],
    },
  },
];
const APPLE_PATH = '/.well-known/apple-app-site-association';
const ANDROID_PATH = '/.well-known/assetlinks.json';

describe("Domains: the apps' files", () => {
  let t: TestApp;
  let account: TestAccount;
  const { call, form, json } = apiClient(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    account = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const host = () => `apps-${randomBytes(4).toString('hex')}.example`;
  const served = (name: string, path: string) => t.http().get(path).set('Host', name);

  it('takes the documents themselves in JSON, answers them as text, and serves them on that domain', async () => {
    const name = host();
    const created = await json(account, 'post', '/api/v1/domains', {
      name,
      apple_app_site_association: AASA,
      assetlinks: ASSET_LINKS,
    });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body.data.apple_app_site_association as string)).toEqual(AASA);
    expect(JSON.parse(created.body.data.assetlinks as string)).toEqual(ASSET_LINKS);

    const apple = await served(name, APPLE_PATH);
    expect(apple.status).toBe(200);
    expect(apple.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(apple.body).toEqual(AASA);
    const android = await served(name, ANDROID_PATH);
    expect(android.status).toBe(200);
    expect(android.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(android.body).toEqual(ASSET_LINKS);
  });

  it('takes a string that holds the document, in a form as in JSON, and serves it as written', async () => {
    const name = host();
    const text = JSON.stringify(AASA, null, 2);
    const created = await form(account, 'post', '/api/v1/domains', {
      name,
      apple_app_site_association: text,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ apple_app_site_association: text, assetlinks: null });
    expect((await served(name, APPLE_PATH)).text).toBe(text);
    // The domain has no Android file, and the default domain has neither.
    expect((await served(name, ANDROID_PATH)).status).toBe(404);
    expect((await t.http().get(APPLE_PATH)).status).toBe(404);
  });

  it('changes a file on update, serves the new one at once, and clears one sent empty', async () => {
    const name = host();
    const created = await json(account, 'post', '/api/v1/domains', { name, assetlinks: ASSET_LINKS });
    const id = created.body.data.id as number;
    const changed = [
      { ...ASSET_LINKS[0], target: { ...ASSET_LINKS[0].target, package_name: 'com.example.other' } },
    ];
    expect((await json(account, 'patch', `/api/v1/domains/${id}`, { assetlinks: changed })).status).toBe(200);
    expect((await served(name, ANDROID_PATH)).body).toEqual(changed);
    const cleared = await form(account, 'put', `/api/v1/domains/${id}`, { assetlinks: '' });
    expect(cleared.body.data.assetlinks).toBeNull();
    expect((await served(name, ANDROID_PATH)).status).toBe(404);
  });

  it.each([
    [
      'text that does not parse',
      '{"applinks": ',
      'The apple app site association field must be a JSON object or list.',
    ],
    ['a JSON string', '"just text"', 'The apple app site association field must be a JSON object or list.'],
    ['a number', 7, 'The apple app site association field must be a JSON document.'],
    [
      'more than 64 KB',
      JSON.stringify({ padding: 'a'.repeat(64 * 1024) }),
      'The apple app site association field must be at most 64 KB.',
    ],
  ])('refuses %s with a 422 that names the field', async (_label, value, message) => {
    const response = await json(account, 'post', '/api/v1/domains', {
      name: host(),
      apple_app_site_association: value,
    });
    expect(response.body).toEqual(invalid('apple_app_site_association', message));
  });

  it("lets no other account change a domain's files", async () => {
    const name = host();
    const created = await json(account, 'post', '/api/v1/domains', { name, assetlinks: ASSET_LINKS });
    const stranger = await createAccount(t);
    const refused = await json(stranger, 'patch', `/api/v1/domains/${created.body.data.id as number}`, {
      assetlinks: [],
    });
    expect(refused.status).toBe(404);
    expect((await served(name, ANDROID_PATH)).body).toEqual(ASSET_LINKS);
    expect(
      (await call(account, 'get', `/api/v1/domains/${created.body.data.id as number}`)).body.data.assetlinks,
    ).toBe(JSON.stringify(ASSET_LINKS));
  });
});
