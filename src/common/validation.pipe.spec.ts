import { performance } from 'node:perf_hooks';
import { ValidateBy } from 'class-validator';
import { ValidationFailedException } from './exceptions';
import { FormString } from './validation';
import { validateEach } from './validation.pipe';

const validated: number[] = [];

/** A DTO whose validation takes a millisecond of the event loop, as a link with many targets does. */
class SlowDto {
  @FormString({ max: 10 })
  @ValidateBy({
    name: 'slow',
    validator: {
      validate: (value) => {
        const until = performance.now() + 1;
        while (performance.now() < until);
        validated.push(Number(String(value).slice(1)));
        return true;
      },
    },
  })
  name!: string;
}

describe('validateEach', () => {
  beforeEach(() => (validated.length = 0));

  it('converts every item, dropping unknown fields', async () => {
    const items = await validateEach(SlowDto, [{ name: ' n0 ' }, { name: 'n1', extra: 1 }], 'items');
    expect(items).toEqual([
      Object.assign(new SlowDto(), { name: 'n0' }),
      Object.assign(new SlowDto(), { name: 'n1' }),
    ]);
  });

  it('names each refusal with the item’s index, every item checked', async () => {
    const refusal = validateEach(
      SlowDto,
      [{ name: 'n0' }, { name: 'far too long' }, { name: 'n2' }, { name: 7 }],
      'items',
    );
    await expect(refusal).rejects.toBeInstanceOf(ValidationFailedException);
    const { fields } = (await refusal.catch((error: unknown) => error)) as ValidationFailedException;
    expect(Object.keys(fields)).toEqual(['items.1.name', 'items.3.name']);
    expect(fields['items.1.name']).toEqual(['The name field must not be greater than 10 characters.']);
  });

  it('lets other work run while it validates a long list, not only before or after it', async () => {
    const seenAt: number[] = [];
    const timer = setInterval(() => seenAt.push(validated.length), 0);
    try {
      await validateEach(
        SlowDto,
        Array.from({ length: 40 }, (_, index) => ({ name: `n${index}` })),
        'items',
      );
    } finally {
      clearInterval(timer);
    }
    expect(validated).toHaveLength(40);
    expect(seenAt.some((count) => count > 0 && count < 40)).toBe(true);
  });
});
