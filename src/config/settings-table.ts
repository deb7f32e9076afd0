import { SETTINGS, type Setting, type SettingName } from './settings';

/** Where the table stands in docs/OPERATIONS.md, between these two lines. */
export const TABLE_START =
  '<!-- settings table: generated from src/config/settings.ts by `npm run docs:settings` -->';
export const TABLE_END = '<!-- end of the settings table -->';

const HEADER = ['variable', 'default', 'takes', 'meaning'];

/** One row of the table per setting: its name (and _file_ for a secret), default, what it takes, and meaning. */
export function settingsRows(): string[][] {
  return (Object.keys(SETTINGS) as SettingName[]).map((name) => {
    const declared: Setting = SETTINGS[name];
    return [
      `\`${name}\`${declared.secret === true ? ' _file_' : ''}`,
      declared.shown,
      declared.expected.replace(/\|/g, '\\|'),
      declared.meaning.replace(/\|/g, '\\|'),
    ];
  });
}

/** The table as Markdown, its columns aligned as the formatter aligns them. */
export function settingsTable(): string {
  const rows = [HEADER, ...settingsRows()];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(rows[0]), line(widths.map((width) => '-'.repeat(width))), ...rows.slice(1).map(line)].join(
    '\n',
  );
}

/** The cells of the Markdown table between the markers of `document`, trimmed, separator row left out. */
export function documentedRows(document: string): string[][] {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start === -1 || end < start) return [];
  return document
    .slice(start + TABLE_START.length, end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|-]+\|$/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

/** `document` with the table between its markers replaced by the one the schema gives. */
export function withSettingsTable(document: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`the document has no "${TABLE_START}" … "${TABLE_END}"`);
  return `${document.slice(0, start + TABLE_START.length)}\n\n${settingsTable()}\n\n${document.slice(end)}`;
}
