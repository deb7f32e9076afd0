import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import TransferPage from '../src/features/transfer/TransferPage';
import { json } from './api';
import { renderSignedIn } from './render';

describe('the CSV import', () => {
  it('lists every refused row by its line in the file, as the API names them', async () => {
    await renderSignedIn(<TransferPage />, {
      routes: {
        'POST /api/v1/links/import': () =>
          json(422, {
            message: {
              'line.3.url': ['The url field must be a valid URL.'],
              'line.7.alias': ['The alias has already been taken.'],
            },
            status: 422,
          }),
      },
    });
    const user = userEvent.setup({ delay: null });
    const file = new File(['url,alias\n'], 'links.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('CSV file'), file);
    // jsdom counts a file set by a test as missing for `required`: the form is sent as the browser would.
    fireEvent.submit(screen.getByRole('button', { name: 'Import' }));

    const alert = await screen.findByRole('alert');
    const items = within(alert).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Line 3: url — The url field must be a valid URL.',
      'Line 7: alias — The alias has already been taken.',
    ]);
  });
});
