import { html, trusted } from '../../common/html';
import { CATALOGUE, LOCALES, pickLocale, type MessageKey, type Messages } from './messages';
import { statsPage } from '../stats-page/stats-view';
import type { Page } from './page';
import { Translator } from './translator';
import { views, type ViewName } from './views';

const english = CATALOGUE.en;
const keys = Object.keys(english) as MessageKey[];

function placeholders(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
}

/** Words that are the same in a language as in English, checked one by one: nothing else may be. */
const SAME_AS_ENGLISH: Record<string, MessageKey[]> = {
  es: ['continentAS'],
  fr: ['previewDestination', 'continents', 'continentEU', 'deviceMobile'],
  de: ['deviceTablet'],
};

describe('the message catalogue', () => {
  it.each(LOCALES.filter((locale) => locale !== 'en'))(
    'has every message in %s, with the same values to fill in, and none left in English',
    (locale) => {
      const messages = CATALOGUE[locale];
      expect(Object.keys(messages).sort()).toEqual([...keys].sort());
      for (const key of keys) {
        expect({ key, placeholders: placeholders(messages[key]) }).toEqual({
          key,
          placeholders: placeholders(english[key]),
        });
        expect(messages[key].trim()).not.toBe('');
        if (!SAME_AS_ENGLISH[locale].includes(key)) {
          expect({ key, message: messages[key] }).not.toEqual({ key, message: english[key] });
        }
      }
      for (const key of SAME_AS_ENGLISH[locale]) expect(messages[key]).toBe(english[key]);
    },
  );

  it('has both plural forms of every plural message', () => {
    for (const key of keys.filter((name) => name.endsWith('_other'))) {
      expect(keys).toContain(key.replace(/_other$/, '_one'));
    }
  });
});

describe('pickLocale', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['de', 'de'],
    ['de-CH', 'de'],
    ['FR-ca', 'fr'],
    ['en-GB,en;q=0.9,es;q=0.8', 'en'],
    ['it, es;q=0.9, fr;q=0.8', 'es'],
    ['en;q=0.5, fr', 'fr'],
    ['fr;q=0, de;q=0.1', 'de'],
    ['*', 'en'],
    ['it, pt-BR', 'en'],
    ['de;q=abc', 'en'],
    ['es;q=1.5, fr;q=0.4', 'fr'],
    // A weight is 0 to 1 with at most three decimals (RFC 9110, 12.4.2): any other makes its range ignored.
    ['es;q=1.0001, fr;q=0.4', 'fr'],
    ['es;q=NaN, fr;q=0.4', 'fr'],
    ['es;q=0.1234, fr;q=0.4', 'fr'],
    ['es;q=, fr;q=0.4', 'fr'],
    ['es;q=-0.5, fr;q=0.4', 'fr'],
    ['es;q=.5, fr;q=0.4', 'fr'],
    ['es;q=1e0, fr;q=0.4', 'fr'],
    ['es;q=0x1, fr;q=0.4', 'fr'],
    ['es;q=1.000, fr;q=0.4', 'es'],
    ['es;q=1., fr;q=0.4', 'es'],
    ['fr;q=0.4, es;Q=0.5', 'es'],
    ['fr;q=0.4, es; q=0.5 ', 'es'],
    ['de;q=0.001, it', 'de'],
    [';;,,', 'en'],
    [`${'x-'.repeat(2000)}, de`, 'en'],
  ])('reads %j as %s', (header, locale) => {
    expect(pickLocale(header)).toBe(locale);
  });
});

/**
 * Every page, rendered once with sample values. The record's type names every view, so a page added later without
 * a sample here fails to compile.
 */
type Sampled = ViewName | 'stats';
const SAMPLES: Record<Sampled, (t: Translator) => Page> = {
  notFound: (t) => views.notFound(t),
  expired: (t) => views.expired(t),
  password: (t) =>
    views.password(t, {
      form: { action: '/abc/password', query: 'x=1', referrer: 'https://1.2.3.4/' },
      leads: { domain: '10.0.0.1', host: '10.0.0.2' },
      error: 'passwordWrong',
    }),
  statsPassword: (t) => views.statsPassword(t, { action: '/abc/stats', domain: '10.0.0.1', wrong: true }),
  consent: (t) =>
    views.consent(t, {
      form: { action: '/abc/sensitive-consent', query: '', referrer: '' },
      token: '123',
      leads: { domain: '10.0.0.1', host: null },
    }),
  pixels: (t) => views.pixels(t, { destination: 'https://10.0.0.2/', pixels: html``, allow: {} }),
  socialPreview: (t) =>
    views.socialPreview(t, {
      preview: { title: null, description: null, imageUrl: 'https://10.0.0.2/card.png' },
      destination: 'https://10.0.0.2/',
    }),
  preview: (t) =>
    views.preview(t, {
      alias: '123',
      shortUrl: 'https://10.0.0.1/123',
      title: null,
      destination: 'https://10.0.0.2/',
      hidden: true,
      active: true,
    }),
  root: (t) => views.root(t, { name: '10.0.0.1', domain: '10.0.0.1', own: true }),
  privateStats: (t) => views.privateStats(t, { domain: '10.0.0.1' }),
  qrRefused: (t) => views.qrRefused(t, { fields: ['size', 'color'], minSize: 64, maxSize: 1024 }),
  tooManyAttempts: (t) => views.tooManyAttempts(t, 900_000),
  tooManyRequests: (t) => views.tooManyRequests(t, 30_000),
  queryTooLong: (t) => views.queryTooLong(t),
  stats: (t) =>
    statsPage(t, {
      name: '123',
      alias: '123',
      shortUrl: 'https://10.0.0.1/123',
      range: '30',
      from: new Date('2026-05-01T00:00:00Z'),
      to: new Date('2026-05-02T00:00:00Z'),
      total: 3,
      series: {
        unit: 'day',
        buckets: [
          { start: new Date('2026-05-01T00:00:00Z'), count: 1 },
          { start: new Date('2026-05-02T00:00:00Z'), count: 2 },
        ],
      },
      dimensions: [
        { name: 'referrer', rows: [{ value: null, count: 3 }] },
        { name: 'country', rows: [{ value: null, count: 3 }] },
        { name: 'continent', rows: [{ value: 'EU', count: 3 }] },
        { name: 'browser', rows: [] },
        { name: 'operating_system', rows: [{ value: null, count: 3 }] },
        { name: 'device', rows: [{ value: 'Mobile', count: 3 }] },
        { name: 'language', rows: [] },
      ],
      countries: [],
    }),
};

/** Markup without the marked messages, innermost first: a message may hold another one's markup. */
function unmarked(markup: string): string {
  let rest = markup;
  for (let previous = ''; previous !== rest;) {
    previous = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, '');
  }
  return rest;
}

/** What a reader gets of a page: its text between tags and the attributes that are read out. */
function readableText(page: Page): string[] {
  const markup = `<title>${page.title}</title><h1>${page.heading ?? page.title}</h1>${page.before?.markup ?? ''}${page.body.markup}`;
  const attributes = [...markup.matchAll(/\s(?:aria-label|title|alt|placeholder)="([^"]*)"/g)].map(
    (match) => match[1],
  );
  const texts = markup.split(/<[^>]*>/);
  return [...texts, ...attributes].map((text) => text.trim()).filter((text) => text !== '');
}

describe('every visitor page', () => {
  /**
   * A catalogue in which every message is marked: any letter on a page outside a mark was written into the page
   * itself, and would stay English for every visitor. Numbers, addresses and dates are the page's values, and are
   * written without letters in the samples (dates as the runtime's numeric form of an unknown language).
   */
  const marked = Object.fromEntries(keys.map((key) => [key, `⟦${english[key]}⟧`])) as Messages;
  const pseudo = new Translator('en', marked);
  // Dates and other values the runtime formats: the samples' only source of letters besides the catalogue.
  const values = [
    pseudo.day(new Date('2026-05-01T00:00:00Z')),
    pseudo.day(new Date('2026-05-02T00:00:00Z')),
    'DB-IP',
    'https',
  ];

  it.each(Object.keys(SAMPLES) as Sampled[])('%s has no text outside the catalogue', (name) => {
    const page = SAMPLES[name](pseudo);
    const stripped: Page = {
      ...page,
      title: unmarked(page.title),
      heading: unmarked(page.heading ?? page.title),
      before: page.before === undefined ? undefined : trusted(unmarked(page.before.markup)),
      body: trusted(unmarked(page.body.markup)),
    };
    expect(unmarked(page.body.markup)).not.toBe(page.body.markup);
    for (const text of readableText(stripped)) {
      let rest = text;
      for (const value of values) rest = rest.split(value).join('');
      expect({ text, untranslated: rest.match(/\p{L}+/gu) }).toEqual({ text, untranslated: null });
    }
  });

  it.each(LOCALES.flatMap((locale) => (Object.keys(SAMPLES) as Sampled[]).map((name) => [locale, name])))(
    'in %s, %s says nothing of another language’s catalogue',
    (locale, name) => {
      const t = new Translator(locale as (typeof LOCALES)[number]);
      const text = readableText(SAMPLES[name as Sampled](t)).join('\n');
      for (const other of LOCALES.filter((candidate) => candidate !== locale)) {
        for (const key of keys) {
          const message = CATALOGUE[other][key];
          // Short words and messages the languages share say nothing about which catalogue was used.
          if (message.length < 12 || message === CATALOGUE[locale as (typeof LOCALES)[number]][key]) continue;
          const fixed = message.split(/\{\w+\}/)[0];
          if (fixed.length < 12) continue;
          expect({ other, key, found: text.includes(fixed) }).toEqual({ other, key, found: false });
        }
      }
    },
  );
});
