import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Passkey } from '../src/api/people';
import type { User, UserSession } from '../src/api/types';
import ProfilePage from '../src/features/profile/ProfilePage';
import { json, type Routes } from './api';
import { session, userSession } from './fixtures';
import { renderSignedIn } from './render';

const { startRegistration } = vi.hoisted(() => ({ startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startRegistration, startAuthentication: vi.fn() }));

const AT = '2026-11-20T10:00:00.000000Z';
const USER: User = {
  id: 7,
  name: 'Ann Lee',
  email: 'ann@example.com',
  two_factor: 0,
  created_at: AT,
  updated_at: AT,
};
const HERE: UserSession = {
  id: 12,
  ip: '203.0.113.7',
  user_agent: 'Firefox on Linux',
  workspace_id: 1,
  current: 1,
  created_at: AT,
  expires_at: AT,
};
const PHONE: UserSession = {
  ...HERE,
  id: 13,
  ip: '198.51.100.2',
  user_agent: 'Safari on iPhone',
  current: 0,
};
const PASSKEY: Passkey = { id: 3, name: 'Work laptop', created_at: AT, last_used_at: null };
const CODES = Array.from({ length: 10 }, (_, index) => `code-${index}`);

const data = (body: unknown, status = 200) => json(status, { data: body, status: 200 });
const bodyOf = (request: { body: string | null } | undefined): unknown => JSON.parse(request?.body ?? '');

async function renderProfile(routes: Routes = {}, user: User = USER) {
  const view = await renderSignedIn(<ProfilePage />, {
    path: '/profile',
    session: userSession('editor'),
    routes: {
      'GET /api/v1/user': () => data(user),
      'GET /api/v1/user/sessions': () => data([HERE, PHONE]),
      'GET /api/v1/user/passkeys': () => data([PASSKEY]),
      ...routes,
    },
  });
  await screen.findByRole('heading', { name: 'Your details' });
  return { ...view, user: userEvent.setup({ delay: null }) };
}

const card = (name: string) => screen.getByRole('region', { name });

describe('the profile', () => {
  it('is for people: a key’s session is told so', async () => {
    await renderSignedIn(<ProfilePage />, { path: '/profile', session: session() });

    expect(screen.getByText(/opened with an API key/)).toBeInTheDocument();
  });

  it('changes the name alone, and asks for the current password only once the email changes', async () => {
    const { api, user } = await renderProfile({
      'PATCH /api/v1/user': (request) => data({ ...USER, ...(bodyOf(request) as object) }),
    });
    const details = card('Your details');
    expect(within(details).queryByLabelText('Current password')).not.toBeInTheDocument();

    await user.clear(within(details).getByLabelText('Your name'));
    await user.type(within(details).getByLabelText('Your name'), 'Ann Leigh');
    await user.click(within(details).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your details are saved.')).toBeInTheDocument();
    expect(bodyOf(api.to('PATCH', '/api/v1/user')[0])).toEqual({ name: 'Ann Leigh' });

    await user.clear(within(details).getByLabelText('Email'));
    await user.type(within(details).getByLabelText('Email'), 'ann@new.example');
    await user.type(within(details).getByLabelText('Current password'), 'correct horse battery');
    await user.click(within(details).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', '/api/v1/user')).toHaveLength(2));
    expect(bodyOf(api.to('PATCH', '/api/v1/user')[1])).toEqual({
      name: 'Ann Leigh',
      email: 'ann@new.example',
      current_password: 'correct horse battery',
    });
  });

  it('changes the password with the current one, and says the other sessions ended', async () => {
    let tries = 0;
    const { api, user } = await renderProfile({
      'PATCH /api/v1/user': () => {
        tries += 1;
        return tries === 1
          ? json(422, { message: { current_password: ['The password is incorrect.'] }, status: 422 })
          : data(USER);
      },
    });
    const password = card('Password');
    const current = within(password).getByLabelText('Current password');

    await user.type(current, 'wrong');
    await user.type(within(password).getByLabelText('New password'), 'a brand new password');
    await user.click(within(password).getByRole('button', { name: 'Change the password' }));
    await waitFor(() => expect(current).toHaveFocus());
    expect(current).toHaveAccessibleDescription('The password is incorrect.');

    await user.clear(current);
    await user.type(current, 'correct horse battery');
    await user.click(within(password).getByRole('button', { name: 'Change the password' }));

    expect(await screen.findByText('Password changed. Your other sessions have ended.')).toBeInTheDocument();
    expect(bodyOf(api.to('PATCH', '/api/v1/user').at(-1))).toEqual({
      password: 'a brand new password',
      current_password: 'correct horse battery',
    });
    expect(current).toHaveValue('');
    await waitFor(() => expect(api.to('GET', '/api/v1/user/sessions')).toHaveLength(2));
  });

  it('turns two-factor on with a code of the new secret, then shows the recovery codes once', async () => {
    let on = false;
    const { api, user } = await renderProfile({
      'GET /api/v1/user': () => data({ ...USER, two_factor: on ? 1 : 0 }),
      'POST /api/v1/user/two-factor': () =>
        data(
          { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Shortlink:ann?secret=JBSWY3DPEHPK3PXP' },
          201,
        ),
      'POST /api/v1/user/two-factor/confirm': (request) => {
        if ((bodyOf(request) as { otp: string }).otp !== '123456') {
          return json(422, { message: { otp: ['The code is not valid.'] }, status: 422 });
        }
        on = true;
        return data({ recovery_codes: CODES });
      },
    });
    const twoFactor = card('Two-factor sign-in');
    expect(within(twoFactor).getByText(/Off:/)).toBeInTheDocument();

    await user.click(within(twoFactor).getByRole('button', { name: 'Turn on two-factor' }));
    expect(await within(twoFactor).findByTestId('two-factor-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(within(twoFactor).getByRole('link', { name: 'Open in an authenticator app' })).toHaveAttribute(
      'href',
      'otpauth://totp/Shortlink:ann?secret=JBSWY3DPEHPK3PXP',
    );
    const code = within(twoFactor).getByLabelText('Code from the app');
    await user.type(code, '000000');
    await user.click(within(twoFactor).getByRole('button', { name: 'Confirm and turn on' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription('The code is not valid.'));

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(within(twoFactor).getByRole('button', { name: 'Confirm and turn on' }));

    const shown = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(within(shown).getByTestId('secret').textContent?.split('\n')).toEqual(CODES);
    expect(shown).toHaveTextContent('it will not be shown again');
    await user.click(within(shown).getByRole('button', { name: 'I have stored it' }));
    expect(await within(twoFactor).findByText(/On:/)).toBeInTheDocument();
    expect(api.to('POST', '/api/v1/user/two-factor/confirm')).toHaveLength(2);
  });

  it('turns two-factor off, and gives new recovery codes, each with the current password', async () => {
    const { api, user } = await renderProfile(
      {
        'POST /api/v1/user/two-factor/recovery-codes': () => data({ recovery_codes: CODES }),
        'POST /api/v1/user/two-factor/disable': () => data(USER),
      },
      { ...USER, two_factor: 1 },
    );
    const twoFactor = card('Two-factor sign-in');

    await user.click(within(twoFactor).getByRole('button', { name: 'New recovery codes' }));
    let dialog = screen.getByRole('dialog', { name: 'New recovery codes' });
    await user.type(within(dialog).getByLabelText('Current password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'New recovery codes' }));
    const shown = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    await user.click(within(shown).getByRole('button', { name: 'I have stored it' }));

    await user.click(within(twoFactor).getByRole('button', { name: 'Turn off two-factor' }));
    dialog = screen.getByRole('dialog', { name: 'Turn off two-factor' });
    await user.type(within(dialog).getByLabelText('Current password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Turn off two-factor' }));

    expect(await screen.findByText('Two-factor sign-in is off.')).toBeInTheDocument();
    for (const path of ['/api/v1/user/two-factor/recovery-codes', '/api/v1/user/two-factor/disable']) {
      expect(bodyOf(api.to('POST', path)[0])).toEqual({ current_password: 'correct horse battery' });
    }
  });

  it('adds a passkey made by the browser under the name given, and removes one', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    const attestation = { id: 'cred-2', type: 'public-key', response: {} };
    startRegistration.mockResolvedValue(attestation);
    let passkeys = [PASSKEY];
    const { api, user } = await renderProfile({
      'GET /api/v1/user/passkeys': () => data(passkeys),
      'POST /api/v1/user/passkeys/options': () =>
        data({ options: { challenge: 'xyz', rp: { name: 'Shortlink' } } }),
      'POST /api/v1/user/passkeys': () => {
        passkeys = [PASSKEY, { ...PASSKEY, id: 4, name: 'Phone' }];
        return data(passkeys[1], 201);
      },
      'DELETE /api/v1/user/passkeys/:id': () => {
        passkeys = passkeys.filter((passkey) => passkey.id !== 3);
        return json(200, { id: 3, object: 'passkey', deleted: true, status: 200 });
      },
    });
    const section = card('Passkeys');
    await within(section).findByRole('rowheader', { name: 'Work laptop' });

    await user.type(within(section).getByLabelText('Name of the new passkey'), 'Phone');
    await user.click(within(section).getByRole('button', { name: 'Add a passkey' }));

    expect(await screen.findByText('Passkey added: Phone')).toBeInTheDocument();
    expect(startRegistration).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'xyz', rp: { name: 'Shortlink' } },
    });
    expect(bodyOf(api.to('POST', '/api/v1/user/passkeys')[0])).toEqual({
      name: 'Phone',
      response: attestation,
    });
    expect(await within(section).findByRole('rowheader', { name: 'Phone' })).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Remove Work laptop' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Remove this passkey?' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    await waitFor(() => expect(within(section).queryByRole('rowheader', { name: 'Work laptop' })).toBeNull());
  });

  it('says when the service has no passkeys', async () => {
    await renderProfile({
      'GET /api/v1/user/passkeys': () => json(404, { message: 'Not found.', status: 404 }),
    });
    expect(
      await within(card('Passkeys')).findByText('Passkeys are not available on this service.'),
    ).toBeInTheDocument();
    expect(within(card('Passkeys')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('lists the passkeys but offers no new one in a browser without WebAuthn', async () => {
    await renderProfile();
    const section = card('Passkeys');
    expect(await within(section).findByRole('rowheader', { name: 'Work laptop' })).toBeInTheDocument();
    expect(within(section).getByText('This browser cannot use passkeys.')).toBeInTheDocument();
    expect(within(section).queryByLabelText('Name of the new passkey')).not.toBeInTheDocument();
  });

  it('lists where the person is signed in, and ends any session but this one', async () => {
    let ended = false;
    const { api, user } = await renderProfile({
      'GET /api/v1/user/sessions': () => data(ended ? [HERE] : [HERE, PHONE]),
      'DELETE /api/v1/user/sessions/:id': () => {
        ended = true;
        return json(200, { id: 13, object: 'session', deleted: true, status: 200 });
      },
    });
    const sessions = card('Where you are signed in');
    const here = (await within(sessions).findByText('Firefox on Linux')).closest('tr')!;
    expect(within(here).getByText('This session')).toBeInTheDocument();
    expect(within(here).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(sessions).getByRole('button', { name: 'End session Safari on iPhone' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'End this session?' })).getByRole('button', {
        name: 'End session',
      }),
    );

    expect(await screen.findByText('Session ended: Safari on iPhone')).toBeInTheDocument();
    expect(api.to('DELETE', '/api/v1/user/sessions/13')).toHaveLength(1);
    await waitFor(() => expect(within(sessions).queryByText('Safari on iPhone')).toBeNull());
  });
});
