import {
  BROWSERS,
  CONTINENTS,
  DEVICES,
  OPERATING_SYSTEMS,
  TargetsType,
} from '../../src/targeting/allowed-values';
import { createAccount, createTestApp, type TestApp } from '../support/app';
import { apiClient, type Body } from '../support/api';
import { invalid } from '../support/contract';
import { LINKS, formBody, targetFields, linkFixtures } from '../support/links';

/** A link's targets: each kind's allowed values, and how a form or JSON body writes them. */
describe('Links API', () => {
  let t: TestApp;
  const { form, json } = apiClient(() => t);
  const { createLink, list } = linkFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('POST /links (store)', () => {
    describe('targeting', () => {
      const VALID: [TargetsType, string[], string[]][] = [
        [TargetsType.Continents, [...CONTINENTS, 'eu'], [...CONTINENTS, 'EU']],
        [
          TargetsType.Countries,
          ['US', 'DE', 'JP', 'BR', 'ZA', 'AQ', 'us', 'gb'],
          ['US', 'DE', 'JP', 'BR', 'ZA', 'AQ', 'US', 'GB'],
        ],
        [TargetsType.OperatingSystems, [...OPERATING_SYSTEMS], [...OPERATING_SYSTEMS]],
        [TargetsType.Browsers, [...BROWSERS], [...BROWSERS]],
        [
          TargetsType.Devices,
          [...DEVICES, ...DEVICES.map((device) => device.toLowerCase())],
          [...DEVICES, ...DEVICES],
        ],
        [TargetsType.Languages, ['en', 'de', 'fr', 'ja', 'zh', 'EN'], ['en', 'de', 'fr', 'ja', 'zh', 'en']],
      ];

      it.each(VALID)(
        'accepts every allowed key of %s, stored in canonical form',
        async (type, keys, stored) => {
          const account = await createAccount(t);
          const targets = keys.map((key, index): [string, string] => [key, `https://t${index}.example/`]);

          const link = await createLink(
            account,
            formBody([['url', 'https://example.com/'], ['targets_type', type], ...targetFields(targets)]),
          );

          expect(link.targets_type).toBe(type);
          expect(link.targets).toEqual(
            stored.map((key, index) => ({ key, value: `https://t${index}.example/` })),
          );
          expect(link.last_rotation).toBeNull();
        },
      );

      it('stores a country sent in lower case in upper case', async () => {
        const account = await createAccount(t);

        const link = await createLink(
          account,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'countries'],
            ...targetFields([['us', 'https://us.example/']]),
          ]),
        );

        expect(link.targets).toEqual([{ key: 'US', value: 'https://us.example/' }]);
      });

      it('stores a device sent in lower case as listed', async () => {
        const account = await createAccount(t);

        const link = await createLink(
          account,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'devices'],
            ...targetFields([['mobile', 'https://m.example/']]),
          ]),
        );

        expect(link.targets).toEqual([{ key: 'Mobile', value: 'https://m.example/' }]);
      });

      it.each<[TargetsType, string]>([
        [TargetsType.Countries, 'XX'],
        [TargetsType.Countries, 'USA'],
        [TargetsType.Countries, 'U1'],
        [TargetsType.Countries, 'EU'],
        [TargetsType.Countries, ''],
        [TargetsType.Continents, 'Europe'],
        [TargetsType.Continents, 'EUR'],
        [TargetsType.Continents, 'US'],
        [TargetsType.OperatingSystems, 'BeOS'],
        [TargetsType.OperatingSystems, 'windows'],
        [TargetsType.OperatingSystems, 'Chrome'],
        [TargetsType.Browsers, 'Netscape'],
        [TargetsType.Browsers, 'chrome'],
        [TargetsType.Browsers, 'Windows'],
        [TargetsType.Devices, 'Fridge'],
        [TargetsType.Devices, 'MOBILE'],
        [TargetsType.Languages, 'xx'],
        [TargetsType.Languages, 'eng'],
        [TargetsType.Languages, 'US'],
      ])('refuses the %s key %j with 422 naming its position', async (type, key) => {
        const account = await createAccount(t);
        const valid = VALID.find(([candidate]) => candidate === type)![1][0];

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', type],
            ...targetFields([
              [valid, 'https://ok.example/'],
              [key, 'https://bad.example/'],
            ]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.1.key', `The selected key is invalid for ${type}.`));
        expect((await list(account)).body.meta.total).toBe(0);
      });

      it('refuses a bad key in a JSON body too', async () => {
        const account = await createAccount(t);

        const response = await json(account, 'post', LINKS, {
          url: 'https://example.com/',
          targets_type: 'countries',
          targets: [{ key: 'XX', value: 'https://x.example/' }],
        });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.0.key', 'The selected key is invalid for countries.'));
      });

      it('requires a key for every type but rotations', async () => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'countries'],
            ...targetFields([[null, 'https://x.example/']]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.0.key', 'The key field is required.'));
      });

      it('takes rotations without keys, ignoring a key sent anyway', async () => {
        const account = await createAccount(t);

        const link = await createLink(
          account,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'rotations'],
            ...targetFields([
              [null, 'https://a.example/'],
              ['whatever', 'https://b.example/'],
              [null, 'https://c.example/'],
            ]),
          ]),
          // A rotation's key is ignored: a tolerance the document, which gives rotations no key, does not promise.
          true,
        );

        expect(link.targets_type).toBe('rotations');
        expect(link.targets).toEqual([
          { value: 'https://a.example/', weight: 1 },
          { value: 'https://b.example/', weight: 1 },
          { value: 'https://c.example/', weight: 1 },
        ]);
        expect(link.last_rotation).toBeNull();
      });

      it.each([
        ['not a URL', 'nope', 'The value field must be a valid URL.'],
        ['javascript:', 'javascript:alert(1)', 'The value field must be an http or https URL.'],
        ['empty', '', 'The value field is required.'],
      ])('refuses a target value that is %s, naming targets.N.value', async (_label, value, reason) => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'countries'],
            ...targetFields([
              ['US', 'https://us.example/'],
              ['DE', value],
            ]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.1.value', reason));
      });

      it('refuses a target without a value', async () => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          'url=https://example.com/&targets_type=countries&targets[0][key]=US',
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets.0.value', 'The value field is required.'));
      });

      it.each([
        [100, 201],
        [101, 422],
      ])('takes %i targets with %i', async (count, status) => {
        const account = await createAccount(t);
        const targets = Array.from({ length: count }, (_, index): [null, string] => [
          null,
          `https://r${index}.example/`,
        ]);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', 'rotations'],
            ...targetFields(targets),
          ]),
        );

        expect(response.status).toBe(status);
        if (status === 201) {
          expect(response.body.data.targets).toHaveLength(100);
          expect(response.body.data.targets[99]).toEqual({ value: 'https://r99.example/', weight: 1 });
        } else {
          expect(response.body).toEqual(
            invalid('targets', 'The targets field must not have more than 100 items.'),
          );
        }
      });

      it('refuses targets without targets_type, naming targets_type', async () => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([['url', 'https://example.com/'], ...targetFields([['US', 'https://us.example/']])]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid('targets_type', 'The targets type field is required when targets is present.'),
        );
      });

      it.each([
        ['absent', 'url=https://example.com/&targets_type=countries'],
        ['empty', 'url=https://example.com/&targets_type=countries&targets='],
      ])('refuses targets_type with targets %s, naming targets', async (_label, body) => {
        const account = await createAccount(t);

        const response = await form(account, 'post', LINKS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(
          invalid('targets', 'The targets field is required when targets type is present.'),
        );
      });

      it.each(['planets', 'country', 'Countries'])('refuses targets_type %j with 422', async (type) => {
        const account = await createAccount(t);

        const response = await form(
          account,
          'post',
          LINKS,
          formBody([
            ['url', 'https://example.com/'],
            ['targets_type', type],
            ...targetFields([['US', 'https://us.example/']]),
          ]),
        );

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets_type', 'The selected targets type is invalid.'));
      });

      it.each<[string, 'form' | 'json', Body | string]>([
        ['a string', 'form', 'url=https://example.com/&targets_type=countries&targets=US'],
        [
          'a list of strings',
          'json',
          { url: 'https://example.com/', targets_type: 'countries', targets: ['US'] },
        ],
      ])('refuses targets given as %s', async (_label, type, body) => {
        const account = await createAccount(t);

        const response = await (type === 'form' ? form : json)(account, 'post', LINKS, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual(invalid('targets', 'Each target must have a key and a value.'));
      });

      it('takes an empty targets_type with no targets as no targeting', async () => {
        const account = await createAccount(t);

        const link = await createLink(account, { url: 'https://example.com/', targets_type: '' });

        expect(link.targets_type).toBeNull();
        expect(link.targets).toBeNull();
      });
    });
  });
});
