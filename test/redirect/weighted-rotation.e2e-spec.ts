import { createAccount, type TestAccount, type TestApp } from '../support/app';
import { apiClient } from '../support/api';
import { invalid } from '../support/contract';
import { UA } from '../support/visitors';
import { createListeningApp, DESTINATION, visitClient } from './support';

/**
 * Weighted rotation (contract §13): with `targets_type=rotations` each destination may carry `weight` (1..100,
 * default 1); visits are spread in exact proportion, in a fixed order, and every destination answers its weight.
 */
describe('Visiting short links: weighted rotation', () => {
  let t: TestApp;
  const { json, form, call } = apiClient(() => t);

  beforeAll(async () => {
    t = await createListeningApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, link, expectClicks } = visitClient(() => t);

  /** A link's clicks per destination (`name=target`), most first. */
  async function targets(account: TestAccount, linkId: number): Promise<unknown[]> {
    const response = await call(account, 'get', `/api/v1/stats/${linkId}?name=target`);
    expect(response.status).toBe(200);
    return response.body.data as unknown[];
  }

  it('sends 1,000 visits at weights 70 and 30 to their destinations exactly 700 and 300 times', async () => {
    const account = await createAccount(t);
    const created = await link(account, {
      targets_type: 'rotations',
      targets: [
        { value: 'https://a.example/', weight: 70 },
        { value: 'https://b.example/', weight: 30 },
      ],
    });
    const served = new Map<string, number>();
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => get(`/${created.alias}`, { ua: UA.windowsChrome })),
      );
      for (const answer of answers) {
        const location = String(answer.headers.location);
        served.set(location, (served.get(location) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(served)).toEqual({ 'https://a.example/': 700, 'https://b.example/': 300 });
    await expectClicks(account, created.id, 1000);
    // The stats say which destination each click got.
    expect(await targets(account, created.id)).toEqual([
      { value: 'https://a.example/', count: 700 },
      { value: 'https://b.example/', count: 300 },
    ]);
  });

  it("counts each click under the destination it was sent to: a target, an app link, or the link's own url", async () => {
    const account = await createAccount(t);
    const created = await link(account, {
      targets_type: 'operating_systems',
      targets: [{ key: 'Windows', value: 'https://windows.example/' }],
      ios_url: 'myapp://item/7',
    });
    const visits = [UA.windowsChrome, UA.windowsEdge, UA.windowsChrome, UA.linuxFirefox, UA.macSafari];
    for (const ua of [...visits, UA.iPhoneSafari, UA.googlebot]) await get(`/${created.alias}`, { ua });
    const own = [
      { value: 'https://windows.example/', count: 3 },
      { value: DESTINATION, count: 2 },
      { value: 'myapp://item/7', count: 1 },
    ];
    // A crawler goes through uncounted.
    expect(await targets(account, created.id)).toEqual(own);

    // Clicks sent to the link's own url are counted under the url it has now; a target's keep theirs.
    const moved = await json(account, 'put', `/api/v1/links/${created.id}`, {
      url: 'https://example.com/moved',
      targets: [{ key: 'Windows', value: 'https://windows.example/v2' }],
    });
    expect(moved.status).toBe(200);
    await get(`/${created.alias}`, { ua: UA.windowsChrome });
    expect(await targets(account, created.id)).toEqual([
      { value: 'https://windows.example/', count: 3 },
      { value: 'https://example.com/moved', count: 2 },
      { value: 'https://windows.example/v2', count: 1 },
      { value: 'myapp://item/7', count: 1 },
    ]);
    const searched = await call(
      account,
      'get',
      `/api/v1/stats/${created.id}?name=target&search=WINDOWS.example/v`,
    );
    expect(searched.body.data).toEqual([{ value: 'https://windows.example/v2', count: 1 }]);
  });

  it('counts the clicks of a limited rotation under their turns, and none past the limit', async () => {
    const account = await createAccount(t);
    const created = await link(account, {
      clicks_limit: 5,
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/', weight: 3 }, { value: 'https://b.example/' }],
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => get(`/${created.alias}`, { ua: UA.windowsChrome })),
    );
    const sent = answers.filter((answer) => answer.status === 302).map((answer) => answer.headers.location);
    expect(sent).toHaveLength(5);
    const expected = ['https://a.example/', 'https://b.example/'].map((value) => ({
      value,
      count: sent.filter((location) => location === value).length,
    }));
    expect(await targets(account, created.id)).toEqual(expected.sort((a, b) => b.count - a.count));
  });

  it("takes no turn for an app's visitor, with a limit too, and counts each click where it went", async () => {
    const account = await createAccount(t);
    const created = await link(account, {
      clicks_limit: 100,
      ios_url: 'myapp://item/7',
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
    });
    const sent: string[] = [];
    for (const ua of [
      UA.windowsChrome,
      UA.iPhoneSafari,
      UA.windowsChrome,
      UA.iPhoneSafari,
      UA.linuxFirefox,
    ]) {
      sent.push(String((await get(`/${created.alias}`, { ua })).headers.location));
    }
    expect(sent).toEqual([
      'https://a.example/',
      'myapp://item/7',
      'https://b.example/',
      'myapp://item/7',
      'https://a.example/',
    ]);
    const shown = await call(account, 'get', `/api/v1/links/${created.id}`);
    expect(shown.body.data).toMatchObject({ clicks: 5, last_rotation: 0 });
    expect(await targets(account, created.id)).toEqual([
      { value: 'https://a.example/', count: 2 },
      { value: 'myapp://item/7', count: 2 },
      { value: 'https://b.example/', count: 1 },
    ]);
  });

  it('answers the target stats of a link without clicks as an empty list, and takes target as a name only', async () => {
    const account = await createAccount(t);
    const created = await link(account, {});
    expect(await targets(account, created.id)).toEqual([]);
    const refused = await call(account, 'get', `/api/v1/stats/${created.id}?name=targets`);
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.message as object)).toEqual(['name']);
  });

  it('serves the turns in a fixed order, and answers each weight and the last destination served', async () => {
    const account = await createAccount(t);
    const created = await json(account, 'post', '/api/v1/links', {
      url: 'https://example.com/',
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/', weight: 2 }, { value: 'https://b.example/' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.targets).toEqual([
      { value: 'https://a.example/', weight: 2 },
      { value: 'https://b.example/', weight: 1 },
    ]);
    const alias = created.body.data.alias as string;
    const order: string[] = [];
    for (let visit = 0; visit < 6; visit += 1) {
      order.push(String((await get(`/${alias}`, { ua: UA.windowsChrome })).headers.location));
    }
    expect(order).toEqual([
      'https://a.example/',
      'https://b.example/',
      'https://a.example/',
      'https://a.example/',
      'https://b.example/',
      'https://a.example/',
    ]);
    const shown = await call(account, 'get', `/api/v1/links/${created.body.data.id as number}`);
    // The last turn served the first destination.
    expect(shown.body.data.last_rotation).toBe(0);
  });

  it('takes weights in a form, in bracket notation', async () => {
    const account = await createAccount(t);
    const created = await form(
      account,
      'post',
      '/api/v1/links',
      'url=https%3A%2F%2Fexample.com%2F&targets_type=rotations' +
        '&targets[0][value]=https%3A%2F%2Fa.example%2F&targets[0][weight]=3' +
        '&targets[1][value]=https%3A%2F%2Fb.example%2F',
    );
    expect(created.status).toBe(201);
    expect(created.body.data.targets).toEqual([
      { value: 'https://a.example/', weight: 3 },
      { value: 'https://b.example/', weight: 1 },
    ]);
  });

  it.each([
    [0, 'The weight field must be at least 1.'],
    [101, 'The weight field must not be greater than 100.'],
    [1.5, 'The weight field must be an integer.'],
    ['heavy', 'The weight field must be an integer.'],
  ])('refuses a weight of %p, naming the target', async (weight, message) => {
    const account = await createAccount(t);
    const response = await json(account, 'post', '/api/v1/links', {
      url: 'https://example.com/',
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/' }, { value: 'https://b.example/', weight }],
    });
    expect(response.body).toEqual(invalid('targets.1.weight', message));
  });
});
