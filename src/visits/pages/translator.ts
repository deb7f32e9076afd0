import { escapeHtml, Html } from '../../common/html';
import { CATALOGUE, type Locale, type MessageKey, type Messages } from './messages';

type PluralBase<K extends string> = K extends `${infer Base}_other` ? Base : never;
export type PluralKey = PluralBase<MessageKey>;

export type MessageParams = Record<string, string | number | Html>;

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * The messages of one language, with the number, date and duration formats that go with it. Dates and times are
 * UTC, as the stats are counted.
 */
export class Translator {
  private readonly plurals: Intl.PluralRules;
  private readonly numbers: Intl.NumberFormat;
  private readonly percents: Intl.NumberFormat;
  private readonly smallPercents: Intl.NumberFormat;
  private readonly days: Intl.DateTimeFormat;
  private readonly months: Intl.DateTimeFormat;
  private readonly hours: Intl.DateTimeFormat;

  constructor(
    readonly locale: Locale,
    private readonly messages: Messages = CATALOGUE[locale],
  ) {
    this.plurals = new Intl.PluralRules(locale);
    this.numbers = new Intl.NumberFormat(locale);
    this.percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    this.smallPercents = new Intl.NumberFormat(locale, { style: 'percent', maximumSignificantDigits: 1 });
    this.days = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    this.months = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
    this.hours = new Intl.DateTimeFormat(locale, {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: 'UTC',
    });
  }

  /** A message as plain text (titles, attributes); the page escapes it where it puts it. */
  text(key: MessageKey, params: Record<string, string | number> = {}): string {
    return this.messages[key].replace(PLACEHOLDER, (whole, name: string) =>
      name in params ? this.value(params[name]) : whole,
    );
  }

  /** A message as markup: its text escaped, each value escaped unless it is markup built by the page. */
  html(key: MessageKey, params: MessageParams = {}): Html {
    return new Html(
      escapeHtml(this.messages[key]).replace(PLACEHOLDER, (whole, name: string) => {
        if (!(name in params)) return whole;
        const value = params[name];
        return value instanceof Html ? value.markup : escapeHtml(this.value(value));
      }),
    );
  }

  /** The plural form that fits `count` (`1 click`, `2 clicks`), with the count written as numbers are here. */
  plural(key: PluralKey, count: number): string {
    const form = `${key}_${this.plurals.select(count)}` as MessageKey;
    const chosen = form in this.messages ? form : (`${key}_other` as MessageKey);
    return this.text(chosen, { count });
  }

  number(value: number): string {
    return this.numbers.format(value);
  }

  /** A share in whole percent; under 1 %, to one digit, so that a share above none never reads 0 %. */
  percent(share: number): string {
    return (share > 0 && share < 0.0095 ? this.smallPercents : this.percents).format(share);
  }

  day(date: Date): string {
    return this.days.format(date);
  }

  month(date: Date): string {
    return this.months.format(date);
  }

  hour(date: Date): string {
    return this.hours.format(date);
  }

  /** A wait in words, rounded up to whole seconds, or whole minutes from one minute on. */
  duration(ms: number): string {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    const [amount, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
    return new Intl.NumberFormat(this.locale, { style: 'unit', unit, unitDisplay: 'long' }).format(amount);
  }

  private value(value: string | number | Html): string {
    if (typeof value === 'number') return this.number(value);
    return value instanceof Html ? value.markup : value;
  }
}

const TRANSLATORS = new Map<Locale, Translator>();

/** One translator per language, made on first use. */
export function translatorFor(locale: Locale): Translator {
  let translator = TRANSLATORS.get(locale);
  if (translator === undefined) {
    translator = new Translator(locale);
    TRANSLATORS.set(locale, translator);
  }
  return translator;
}
