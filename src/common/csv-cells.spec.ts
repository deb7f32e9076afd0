import { parse } from 'csv-parse/sync';
import { csvLines, csvText, csvTextRead } from './csv-cells';

const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];

describe('csvText and csvTextRead', () => {
  it.each(FORMULA_STARTS)('write text starting with %j after a quote, and read it back', (start) => {
    const text = `${start}SUM(A1:A9)`;
    expect(csvText(text)).toBe(`'${text}`);
    expect(csvTextRead(csvText(text))).toBe(text);
  });

  it.each([
    ['quotes before a formula character', "''=1"],
    ['a quote before a formula character', "'-1"],
    ['a quote before text', "'quoted"],
    ['quotes alone', "''"],
    ['a formula character inside', 'a=b+c'],
    ['a space before a formula character', ' =1'],
    ['nothing', ''],
  ])('read back %s as written', (_case, text) => {
    expect(csvTextRead(csvText(text))).toBe(text);
  });

  it('leave text that starts with no formula character alone', () => {
    expect(['plain', "'quoted", ' =1', '(1)'].map(csvText)).toEqual(['plain', "'quoted", ' =1', '(1)']);
  });
});

describe('csvLines', () => {
  it('quotes a neutralised cell and one holding another locale’s separator, and leaves numbers bare', () => {
    const line = csvLines([[csvText('=1+1'), 'a;=1+1', 'a\t=1', -5, 'plain']]);
    expect(line).toBe(`"'=1+1","a;=1+1","a\t=1",-5,plain\n`);
    expect(parse(line)).toEqual([["'=1+1", 'a;=1+1', 'a\t=1', '-5', 'plain']]);
  });
});
