import { stringify } from 'csv-stringify/sync';

/**
 * What a spreadsheet reads as the start of a formula (OWASP's CSV injection list: `=`, `+`, `-`, `@`, tab, carriage
 * return), and the full-width forms of the first four, which some spreadsheets read alike.
 */
const FORMULA_START = '=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20';

/** Text that export writes after one more quote: a formula character, after any number of quotes. */
const NEUTRALISED_ON_EXPORT = new RegExp(`^'*[${FORMULA_START}]`);

/** A cell as export writes such text: one quote or more, then a formula character. */
const NEUTRALISED = new RegExp(`^'+[${FORMULA_START}]`);

/** A separator of another spreadsheet locale (`;`, tab): a cell holding one is quoted, so it stays one cell. */
const FOREIGN_SEPARATOR = /[;\t]/;

/**
 * A text cell of an export (a title, a URL, a referrer: anything a visitor or a page chose), safe to open in a
 * spreadsheet: text that would start a formula is written after a single quote, which spreadsheets show as text.
 * Text that already starts with quotes before a formula character gets one more, so that {@link csvTextRead}
 * reads every cell back as it was. Numbers and cells the service makes itself (ids, dates) are not passed here.
 */
export function csvText(value: string): string {
  return NEUTRALISED_ON_EXPORT.test(value) ? `'${value}` : value;
}

/** A text cell of an imported file as {@link csvText} wrote it: the one quote it added before a formula, gone. */
export function csvTextRead(value: string): string {
  return NEUTRALISED.test(value) ? value.slice(1) : value;
}

/** CSV lines of cells: a neutralised cell, or one holding another locale's separator, is quoted. */
export function csvLines(rows: unknown[][]): string {
  return stringify(rows, { quoted_match: [NEUTRALISED, FOREIGN_SEPARATOR] });
}
