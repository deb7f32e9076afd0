import { ConflictException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import {
  constraintException,
  describeDatabaseError,
  isDatabaseError,
  isUniqueViolation,
  statementName,
  stillReferenced,
  takenMessage,
  uniqueField,
} from './database-errors';
import { ValidationFailedException } from './exceptions';

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

describe('constraintException', () => {
  const UNIQUE = uniqueField('UQ_test_things_name', 'display_name');
  const REFERENCED = stillReferenced('FK_test_parts_thing', 'test_things', 'The thing has parts.');

  function violation(
    fields: Record<string, string>,
    query = 'INSERT INTO "test_things" ("name") VALUES ($1)',
  ): QueryFailedError {
    return new QueryFailedError(query, ['x'], pgError('violation', fields));
  }

  it('answers a taken value of a declared unique constraint with 422 naming its field', () => {
    const answer = constraintException(violation({ code: '23505', constraint: UNIQUE }));

    expect(answer).toBeInstanceOf(ValidationFailedException);
    expect((answer as ValidationFailedException).fields).toEqual({
      display_name: ['The display name has already been taken.'],
    });
    expect(takenMessage('alias')).toBe('The alias has already been taken.');
    expect(isUniqueViolation(violation({ code: '23505', constraint: UNIQUE }), UNIQUE)).toBe(true);
  });

  it('answers a refused delete of a row still referenced with 409 and the declared message', () => {
    // As TypeORM's repository deletes; PostgreSQL names the referencing table either way.
    const answer = constraintException(
      violation(
        { code: '23503', constraint: REFERENCED, table: 'test_parts' },
        'DELETE FROM "test_things" WHERE "id" IN ($1)',
      ),
    );

    expect(answer).toBeInstanceOf(ConflictException);
    expect(answer?.message).toBe('The thing has parts.');
  });

  it('leaves alone what was not declared: other constraints, other codes, a refused insert, other errors', () => {
    expect(constraintException(violation({ code: '23505', constraint: 'UQ_undeclared' }))).toBeNull();
    expect(constraintException(violation({ code: '23503', constraint: UNIQUE }))).toBeNull();
    expect(constraintException(violation({ code: '23505', constraint: REFERENCED }))).toBeNull();
    // Inserting a part for a thing that is gone, or deleting a part: not "the thing has parts".
    expect(
      constraintException(violation({ code: '23503', constraint: REFERENCED, table: 'test_parts' })),
    ).toBeNull();
    expect(
      constraintException(
        violation({ code: '23503', constraint: REFERENCED }, 'DELETE FROM "test_parts" WHERE "id" = $1'),
      ),
    ).toBeNull();
    expect(constraintException(violation({ code: '23505' }))).toBeNull();
    expect(constraintException(new Error('UQ_test_things_name'))).toBeNull();
  });
});
