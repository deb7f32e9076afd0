import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import SpacesPage from '../src/features/spaces/SpacesPage';
import { json, listOf } from './api';
import { renderSignedIn } from './render';

describe('a form in a dialog', () => {
  it("forgets a field's messages once it changes, and shows only those of the next answer", async () => {
    const answers = [
      { name: ['The name has already been taken.'] },
      { color: ['The selected color is invalid.'] },
    ];
    await renderSignedIn(<SpacesPage />, {
      path: '/spaces',
      routes: {
        'GET /api/v1/spaces': listOf([]),
        'POST /api/v1/spaces': () => json(422, { message: answers.shift(), status: 422 }),
      },
    });
    const user = userEvent.setup({ delay: null });
    await user.click((await screen.findAllByRole('button', { name: 'New space' }))[0]!);
    const name = screen.getByLabelText('Name');
    await user.type(name, 'Work');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription('The name has already been taken.'));

    await user.type(name, ' two');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('The name has already been taken.')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The selected color is invalid.')).toBeInTheDocument();
    expect(screen.queryByText('The name has already been taken.')).not.toBeInTheDocument();
  });
});
