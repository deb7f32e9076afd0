import { accountId, accountIdOf, accountName, emailAddress, optional, required, text } from './options';
import { UsageError } from './output';

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('no usage error');
}

describe('CLI options', () => {
  it('a required option must be given, with a value', () => {
    expect(required('--name', 'Acme')).toBe('Acme');
    expect(usageError(() => required('--name', undefined))).toBe('Missing --name');
    expect(usageError(() => required('--name', true))).toBe('Missing --name');
  });

  it('an optional option may be absent, but not given without a value', () => {
    expect(optional('--email', undefined)).toBeUndefined();
    expect(optional('--email', 'a@b.example')).toBe('a@b.example');
    expect(usageError(() => optional('--email', true))).toBe('Missing --email');
  });

  it('a blank value is a missing one', () => {
    expect(text('--key', 'lsk_x')).toBe('lsk_x');
    expect(usageError(() => text('--key', ''))).toBe('Missing --key');
    expect(usageError(() => text('--key', '  '))).toBe('Missing --key');
  });

  it('a name is trimmed and at most 255 characters', () => {
    expect(accountName('  Café "Zürich"  ')).toBe('Café "Zürich"');
    expect(accountName(` ${'n'.repeat(255)} `)).toHaveLength(255);
    expect(usageError(() => accountName('n'.repeat(256)))).toBe('--name must be at most 255 characters');
  });

  it.each(['a@b.example', ' ops@acme.example '])('takes %j as an email address', (value) => {
    expect(emailAddress(value)).toBe(value.trim());
  });

  it.each(['nobody', 'a b@c.example', 'a@b', '@b.example', `${'a'.repeat(250)}@b.example`])(
    'refuses %j as an email address',
    (value) => {
      expect(usageError(() => emailAddress(value))).toBe(
        '--email must be an email address of at most 255 characters',
      );
    },
  );

  it.each(['abc', '0', '-1', '01', '1.5', '12345678901'])('refuses %j as an account id', (value) => {
    expect(usageError(() => accountId(value))).toBe('--account must be an account id');
  });

  it('keeps an id beyond the id range as written, and names no account by it', () => {
    expect(accountId('9999999999')).toBe('9999999999');
    expect(accountIdOf('9999999999')).toBeNull();
    expect(accountIdOf('2147483648')).toBeNull();
    expect(accountIdOf('2147483647')).toBe(2_147_483_647);
  });
});
