import { parse } from 'csv-parse/sync';
import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { apiClient } from '../support/api';
import { invalid } from '../support/contract';
import { LINKS } from '../support/links';
import { unique } from '../support/visitors';

/**
 * The fields of contract §13 that a link keeps as given (UTM parameters, app links, social preview, notes): taken
 * on create and update, JSON and form alike, answered by every representation, cleared by an empty value, checked
 * with a 422 that names the field, and carried by the CSV export and import.
 */
const FIELDS = {
  utm_source: 'newsletter',
  utm_medium: 'email',
  utm_campaign: 'spring sale',
  utm_term: 'shoes & socks',
  utm_content: 'header',
  ios_url: 'myapp://open/spring',
  android_url: 'https://app.example.com/spring',
  og_title: 'Spring <sale>',
  og_description: 'Everything "half" off',
  og_image_url: 'https://cdn.example.com/card.png',
  notes: 'Asked for by marketing.\nRuns until June.',
};

describe('Links API: UTM parameters, app links, social previews and notes', () => {
  let t: TestApp;
  let account: TestAccount;
  const { call, form, json, text } = apiClient(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    account = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes every field on create, in JSON and in a form, and answers them on every read', async () => {
    for (const send of [json, form]) {
      const tag = unique('fields');
      const created = await send(account, 'post', LINKS, {
        url: 'https://example.com/a',
        title: tag,
        ...FIELDS,
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject(FIELDS);
      const id = created.body.data.id as number;
      expect((await call(account, 'get', `${LINKS}/${id}`)).body.data).toMatchObject(FIELDS);
      const listed = await call(account, 'get', `${LINKS}?search=${tag}`);
      expect(listed.body.data[0]).toMatchObject(FIELDS);
    }
  });

  it('answers null for each field a link was made without', async () => {
    const created = await json(account, 'post', LINKS, { url: 'https://example.com/b' });
    expect(created.status).toBe(201);
    for (const name of Object.keys(FIELDS)) expect(created.body.data[name]).toBeNull();
  });

  it('changes only the fields an update sends, and clears one sent null (JSON) or empty (a form)', async () => {
    const created = await json(account, 'post', LINKS, { url: 'https://example.com/c', ...FIELDS });
    const id = created.body.data.id as number;
    const patched = await json(account, 'patch', `${LINKS}/${id}`, { utm_source: 'ads', og_title: null });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ ...FIELDS, utm_source: 'ads', og_title: null });
    const put = await form(account, 'put', `${LINKS}/${id}`, { notes: '', ios_url: 'otherapp://x' });
    expect(put.body.data).toMatchObject({ utm_source: 'ads', notes: null, ios_url: 'otherapp://x' });
  });

  it.each([
    ['utm_source', 'a'.repeat(256), 'The utm source field must not be greater than 255 characters.'],
    ['utm_content', ['a'], 'The utm content field must be a string.'],
    ['notes', 'a'.repeat(2001), 'The notes field must not be greater than 2000 characters.'],
    ['og_title', 'a'.repeat(201), 'The og title field must not be greater than 200 characters.'],
    ['og_description', 'a'.repeat(501), 'The og description field must not be greater than 500 characters.'],
    ['og_image_url', 'http://cdn.example.com/card.png', 'The og image url field must be an https URL.'],
    ['og_image_url', 'javascript:alert(1)', 'The og image url field must be an https URL.'],
    ['ios_url', 'javascript:alert(1)', 'The ios url field must be an app link or an https URL.'],
    ['ios_url', 'data:text/html,<b>x</b>', 'The ios url field must be an app link or an https URL.'],
    ['android_url', 'http://app.example.com/', 'The android url field must be an app link or an https URL.'],
    ['android_url', 'not a url', 'The android url field must be a valid URL.'],
    [
      'android_url',
      `myapp://${'a'.repeat(2048)}`,
      'The android url field must not be greater than 2048 characters.',
    ],
  ])('refuses %s %#, naming it', async (field, value, message) => {
    const response = await json(account, 'post', LINKS, { url: 'https://example.com/d', [field]: value });
    expect(response.body).toEqual(invalid(field, message));
  });

  it('exports a note that a spreadsheet would read as a formula after a quote, and imports it back as written', async () => {
    const tag = unique('formula-note');
    const created = await json(account, 'post', LINKS, {
      url: 'https://example.com/f',
      title: tag,
      notes: '=1+1',
    });
    const exported = (await text(account, `${LINKS}/export?search=${tag}`)).body as string;
    const [header, row]: string[][] = parse(exported);
    expect(row[header.indexOf('notes')]).toBe("'=1+1");
    await call(account, 'delete', `${LINKS}/${created.body.data.id as number}`);
    const imported = await call(account, 'post', `${LINKS}/import`).type('text/csv').send(exported);
    expect(imported.body.data[0].notes).toBe('=1+1');
  });

  it('exports the fields and imports them back', async () => {
    const tag = unique('visit-fields');
    const created = await json(account, 'post', LINKS, {
      url: 'https://example.com/e',
      title: tag,
      ...FIELDS,
    });
    const exported = (await text(account, `${LINKS}/export?search=${tag}`)).body as string;
    const [header, row]: string[][] = parse(exported);
    const cells = Object.fromEntries(header.map((name, index) => [name, row[index]]));
    expect(cells).toMatchObject(FIELDS);

    await call(account, 'delete', `${LINKS}/${created.body.data.id as number}`);
    const imported = await call(account, 'post', `${LINKS}/import`).type('text/csv').send(exported);
    expect(imported.status).toBe(201);
    expect(imported.body.data[0]).toMatchObject({ title: tag, ...FIELDS });
  });
});
