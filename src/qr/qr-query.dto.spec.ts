import { ValidationFailedException } from '../common/exceptions';
import { createValidationPipe } from '../common/validation.pipe';
import { qrColours, QrQueryDto } from './qr-query.dto';

const pipe = createValidationPipe();

async function parsed(query: Record<string, string | undefined>): Promise<QrQueryDto> {
  return (await pipe.transform(query, { type: 'query', metatype: QrQueryDto })) as QrQueryDto;
}

async function refused(query: Record<string, string | undefined>): Promise<Record<string, string[]>> {
  try {
    await parsed(query);
  } catch (error) {
    if (error instanceof ValidationFailedException) return error.fields;
    throw error;
  }
  throw new Error('not refused');
}

describe('QrQueryDto', () => {
  it('reads every parameter', async () => {
    const query = await parsed({
      format: 'png',
      size: '512',
      fg: '#1A2B3C',
      bg: 'FAFAFA',
      margin: '0',
      ecc: 'H',
      style: 'rounded',
      logo: '1',
    });
    expect(query).toMatchObject({
      format: 'png',
      size: 512,
      fg: '1a2b3c',
      bg: 'fafafa',
      margin: 0,
      ecc: 'H',
      style: 'rounded',
      logo: true,
    });
  });

  it('takes the older color and background where fg and bg are absent, and black on white by default', async () => {
    expect(qrColours(await parsed({}))).toEqual({ dark: '000000', light: 'ffffff' });
    expect(qrColours(await parsed({ color: '112233', background: 'eeeeee' }))).toEqual({
      dark: '112233',
      light: 'eeeeee',
    });
    expect(
      qrColours(await parsed({ fg: '#000000', color: '112233', bg: '#ffffff', background: 'eeeeee' })),
    ).toEqual({ dark: '000000', light: 'ffffff' });
  });

  it.each([
    // Light on dark scans where the reader inverts; the contrast is what counts.
    { fg: '#ffffff', bg: '#000000' },
    { fg: '#767676' },
    { bg: '#767676', fg: '#000000' },
    { color: '1a2b3c', background: 'fafafa' },
    // The older names alone are read as earlier releases read them, without the contrast rule.
    { color: '00ff00' },
    { color: '000000', background: '111111' },
  ])('takes colours in contrast, and the older names as they were: %j', async (query) => {
    await expect(parsed(query)).resolves.toBeInstanceOf(QrQueryDto);
  });

  const contrast = (field: string, ratio: string) =>
    `The ${field} field must contrast with the background by at least 4.5 to 1 for the code to scan; these colours ` +
    `are ${ratio} to 1.`;

  it.each([
    [{ fg: '#777777' }, { fg: [contrast('fg', '4.47')] }],
    [{ fg: '#000000', bg: '#000000' }, { fg: [contrast('fg', '1.00')] }],
    // A background alone too dark for the default black: the pair is refused on fg all the same.
    [{ bg: '#333333' }, { fg: [contrast('fg', '1.66')] }],
    [{ fg: '#ffff00', bg: '#ffffff' }, { fg: [contrast('fg', '1.07')] }],
    // The older dark colour with the new background: the pair is checked, on fg.
    [{ color: 'aaaaaa', bg: '#ffffff' }, { fg: [contrast('fg', '2.32')] }],
    [{ fg: 'red' }, { fg: ['The fg field must be a colour of six hexadecimal digits, as #1a2b3c.'] }],
    [{ bg: '#12345' }, { bg: ['The bg field must be a colour of six hexadecimal digits, as #fafafa.'] }],
    [{ color: 'red' }, { color: ['The color field must be a colour of six hexadecimal digits, as 1a2b3c.'] }],
    [
      { background: '12345' },
      { background: ['The background field must be a colour of six hexadecimal digits, as 1a2b3c.'] },
    ],
    [{ fg: '#1234567' }, { fg: ['The fg field must be a colour of six hexadecimal digits, as #1a2b3c.'] }],
    [{ margin: '17' }, { margin: ['The margin field must not be greater than 16.'] }],
    [{ margin: '-1' }, { margin: ['The margin field must be at least 0.'] }],
    [{ ecc: 'X' }, { ecc: ['The selected ecc is invalid.'] }],
    [{ ecc: 'h' }, { ecc: ['The selected ecc is invalid.'] }],
    [{ style: 'dots' }, { style: ['The selected style is invalid.'] }],
    [{ logo: 'yes' }, { logo: ['The logo field must be true or false.'] }],
    [
      { logo: '1', ecc: 'M' },
      { ecc: ['The ecc field must be Q or H with a logo: the logo hides part of the code.'] },
    ],
    [
      { logo: 'true', ecc: 'L' },
      { ecc: ['The ecc field must be Q or H with a logo: the logo hides part of the code.'] },
    ],
  ])('refuses %j', async (query, fields) => {
    expect(await refused(query)).toEqual(fields);
  });

  it('refuses a malformed colour for its format, not for a contrast it cannot have', async () => {
    expect(await refused({ fg: '#000000', bg: 'white' })).toEqual({
      bg: ['The bg field must be a colour of six hexadecimal digits, as #fafafa.'],
    });
  });

  it('lets a logo go with Q or H, and with no ecc at all', async () => {
    for (const query of [
      { logo: '1' },
      { logo: '1', ecc: 'Q' },
      { logo: '1', ecc: 'H' },
      { logo: '0', ecc: 'L' },
    ]) {
      await expect(parsed(query)).resolves.toBeInstanceOf(QrQueryDto);
    }
  });
});
