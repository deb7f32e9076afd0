import type { ValidationError } from 'class-validator';
import { ValidationFailedException } from './exceptions';
import { createValidationPipe } from './validation.pipe';
import {
  FormEnum,
  FormInt,
  FormIntIn,
  FormString,
  Nullable,
  Optional,
  Required,
  flattenValidationErrors,
  toBoolean,
} from './validation';

class ExampleDto {
  @Required()
  @FormString({ max: 5 })
  name!: string;

  @Nullable()
  @FormInt({ min: 1, max: 100 })
  per_page?: number | null;

  @Nullable()
  @FormIntIn([1, 2, 3], 'Example')
  color?: number | null;

  @Nullable()
  @FormEnum(['asc', 'desc'], 'ExampleSort')
  sort?: string | null;

  @Optional()
  @FormString({ max: 10 })
  note?: string | null;
}

const pipe = createValidationPipe();

async function validateBody(body: Record<string, unknown>): Promise<ExampleDto> {
  return (await pipe.transform(body, { type: 'body', metatype: ExampleDto })) as ExampleDto;
}

/** The field map of the 422 that `body` gets; fails the test when it is valid. */
async function fieldErrors(body: Record<string, unknown>): Promise<Record<string, string[]>> {
  try {
    await validateBody(body);
  } catch (error) {
    if (error instanceof ValidationFailedException) return error.fields;
    throw error;
  }
  throw new Error(`${JSON.stringify(body)} was accepted`);
}

describe('toBoolean', () => {
  it.each([
    ['1', true],
    ['true', true],
    [1, true],
    [true, true],
    ['0', false],
    ['false', false],
    [0, false],
    [false, false],
  ])('reads %p as %p', (input, expected) => {
    expect(toBoolean(input)).toBe(expected);
  });

  it.each([
    ['', null],
    ['   ', null],
    [null, null],
    [undefined, undefined],
  ])('reads the empty value %p as %p', (input, expected) => {
    expect(toBoolean(input)).toBe(expected);
  });

  it.each(['yes', 'on', '2', 2, 'TRUE '])('leaves %p for the validator to refuse', (input) => {
    expect(toBoolean(input)).toBe(input);
  });
});

describe('form decorators through the global validation pipe', () => {
  it('turns digit strings into integers and trims strings', async () => {
    const dto = await validateBody({ name: '  ab  ', per_page: '25', color: '2', sort: 'asc' });
    expect(dto).toBeInstanceOf(ExampleDto);
    expect({ ...dto }).toEqual({ name: 'ab', per_page: 25, color: 2, sort: 'asc' });
  });

  it('accepts JSON numbers as they are', async () => {
    const dto = await validateBody({ name: 'ab', per_page: 10, color: 3 });
    expect(dto.per_page).toBe(10);
    expect(dto.color).toBe(3);
  });

  it('reads empty strings as null, which nullable fields accept', async () => {
    const dto = await validateBody({ name: 'ab', per_page: '', color: ' ', sort: '' });
    expect({ ...dto }).toEqual({ name: 'ab', per_page: null, color: null, sort: null });
  });

  it('drops unknown fields', async () => {
    const dto = await validateBody({ name: 'ab', id: 7, account_id: 3, extra: 'x' });
    expect({ ...dto }).toEqual({ name: 'ab' });
  });

  it('requires a required field, and an empty string does not count', async () => {
    await expect(fieldErrors({})).resolves.toEqual({ name: ['The name field is required.'] });
    await expect(fieldErrors({ name: '   ' })).resolves.toEqual({ name: ['The name field is required.'] });
  });

  it.each([
    [{ per_page: '1.5' }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: '0x10' }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: '1e2' }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: 'ten' }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: true }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: '1234567890123456' }, 'per_page', 'The per page field must be an integer.'],
    [{ per_page: '0' }, 'per_page', 'The per page field must be at least 1.'],
    [{ per_page: '-3' }, 'per_page', 'The per page field must be at least 1.'],
    [{ per_page: '101' }, 'per_page', 'The per page field must not be greater than 100.'],
    [{ color: '4' }, 'color', 'The selected color is invalid.'],
    [{ color: 'red' }, 'color', 'The selected color is invalid.'],
    [{ sort: 'up' }, 'sort', 'The selected sort is invalid.'],
    [{ note: 'x'.repeat(11) }, 'note', 'The note field must not be greater than 10 characters.'],
    [{ note: 12 }, 'note', 'The note field must be a string.'],
  ])('refuses %p with a named, readable reason', async (fields, field, reason) => {
    await expect(fieldErrors({ name: 'ab', ...fields })).resolves.toEqual({ [field]: [reason] });
  });

  it('reports every failing field, one reason each', async () => {
    await expect(fieldErrors({ name: 'toolong', per_page: 'x', color: '9' })).resolves.toEqual({
      name: ['The name field must not be greater than 5 characters.'],
      per_page: ['The per page field must be an integer.'],
      color: ['The selected color is invalid.'],
    });
  });
});

describe('flattenValidationErrors', () => {
  it('names nested fields with dots', () => {
    const errors: ValidationError[] = [
      { property: 'name', constraints: { isString: 'The name field must be a string.' }, children: [] },
      {
        property: 'targets',
        children: [
          {
            property: '0',
            children: [
              {
                property: 'key',
                constraints: { isIn: 'The selected targets.0.key is invalid.' },
                children: [],
              },
            ],
          },
        ],
      },
      { property: 'pixel_ids', children: [{ property: '1', constraints: { isInt: 'bad', min: 'small' } }] },
    ];
    expect(flattenValidationErrors(errors)).toEqual({
      name: ['The name field must be a string.'],
      'targets.0.key': ['The selected targets.0.key is invalid.'],
      'pixel_ids.1': ['bad', 'small'],
    });
  });

  it('names an error without a property "body"', () => {
    expect(
      flattenValidationErrors([{ property: '', constraints: { whitelist: 'nope' }, children: [] }]),
    ).toEqual({
      body: ['nope'],
    });
  });
});
