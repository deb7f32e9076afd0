import { QueryFailedError } from 'typeorm';
import { describeDatabaseError, isDatabaseError, statementName } from './database-errors';

function pgError(message: string, fields: Record<string, string>): Error {
  return Object.assign(new Error(message), { severity: 'ERROR', ...fields });
}

describe('statementName', () => {
  it('names a statement by its verb and first table, with a hash of its shape', () => {
    expect(statementName('SELECT "a"."id" FROM "api_keys" "a" LEFT JOIN "accounts" "b" ON true')).toMatch(
      /^SELECT api_keys #[0-9a-f]{8}$/,
    );
    expect(statementName('INSERT INTO "links"("alias") VALUES ($1)')).toMatch(/^INSERT links #/);
    expect(statementName('UPDATE public.links SET "title" = $1')).toMatch(/^UPDATE public\.links #/);
    expect(statementName('START TRANSACTION')).toMatch(/^START #/);
  });

  it('gives the same name whatever the literal values, and another to another statement', () => {
    const name = statementName("SELECT * FROM links WHERE alias = 'secret' AND id = 42");
    expect(statementName("SELECT * FROM links WHERE alias = 'other''s'  AND id = 7")).toBe(name);
    expect(name).not.toContain('secret');
    expect(statementName('SELECT * FROM links WHERE alias = $1')).not.toBe(name);
  });
});

describe('describeDatabaseError', () => {
  it('keeps the code, table, column and constraint of a PostgreSQL error, never its message or detail', () => {
    const error = new QueryFailedError(
      'INSERT INTO "links"("alias") VALUES ($1)',
      ['secret'],
      pgError('duplicate key value violates unique constraint "links_alias_unique"', {
        code: '23505',
        detail: 'Key (alias)=(secret) already exists.',
        table: 'links',
        constraint: 'links_alias_unique',
      }),
    );
    const line = describeDatabaseError(error);
    expect(line).toMatch(
      /^code=23505 table=links constraint=links_alias_unique statement="INSERT links #[0-9a-f]{8}"$/,
    );
    expect(isDatabaseError(error)).toBe(true);
  });

  it("keeps pg's own fixed messages, which carry no values", () => {
    expect(describeDatabaseError(new Error('Query read timeout'))).toBe(
      'code=none reason="Query read timeout"',
    );
    expect(describeDatabaseError(new Error('something with secret'))).toBe('code=none');
  });

  it('names the server a socket error was about', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), {
      code: 'ECONNREFUSED',
      address: '10.0.0.5',
      port: 5432,
    });
    expect(describeDatabaseError(refused)).toBe('code=ECONNREFUSED address=10.0.0.5:5432');
    expect(isDatabaseError(refused)).toBe(false);
  });
});
