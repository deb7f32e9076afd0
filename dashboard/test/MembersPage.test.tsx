import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Invitation, Member } from '../src/api/types';
import MembersPage from '../src/features/members/MembersPage';
import { json, listOf, type Routes } from './api';
import { userSession } from './fixtures';
import { renderSignedIn } from './render';

const AT = '2026-11-20T10:00:00.000000Z';
const member = (id: number, name: string, role: Member['role']): Member => ({
  id,
  name,
  email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
  role,
  two_factor: 0,
  joined_at: AT,
  last_sign_in_at: null,
});
const ANN = { ...member(7, 'Ann Lee', 'owner'), two_factor: 1 as const };
const BO = member(8, 'Bo Chen', 'editor');
const INVITATION: Invitation = {
  id: 4,
  email: 'cy@example.com',
  role: 'viewer',
  expires_at: AT,
  created_at: AT,
};
const FORBIDDEN = () => json(403, { message: 'This action is unauthorized.', status: 403 });

async function renderMembers(routes: Routes = {}, role: Member['role'] = 'owner') {
  const view = await renderSignedIn(<MembersPage />, {
    path: '/members',
    session: userSession(role),
    routes: {
      'GET /api/v1/members': listOf([ANN, BO]),
      'GET /api/v1/invitations': listOf([INVITATION]),
      ...routes,
    },
  });
  await screen.findByRole('table', { name: 'Members' });
  return { ...view, user: userEvent.setup({ delay: null }) };
}

const rowOf = (name: string) =>
  screen.getByRole('rowheader', { name: new RegExp(`^${name}`) }).closest('tr')!;

describe('the members page', () => {
  it('lists the members with their roles and the pending invitations, the signed-in person marked', async () => {
    await renderMembers();

    const ann = rowOf('Ann Lee');
    expect(within(ann).getByText('You')).toBeInTheDocument();
    expect(within(ann).getByText('Owner')).toBeInTheDocument();
    expect(within(ann).getByText('On')).toBeInTheDocument();
    expect(within(rowOf('Bo Chen')).getByText('Editor')).toBeInTheDocument();
    expect(within(rowOf('Bo Chen')).getByText('Never')).toBeInTheDocument();
    const invitations = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(invitations).getByRole('rowheader', { name: 'cy@example.com' })).toBeInTheDocument();
    expect(within(invitations).getByRole('button', { name: 'Revoke cy@example.com' })).toBeInTheDocument();
    // The API sorts members by date only and does not search them.
    expect(screen.queryByLabelText('Search')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Sort by')).not.toBeInTheDocument();
  });

  it('shows a viewer no control that would change anything', async () => {
    await renderMembers({}, 'viewer');

    await screen.findByRole('table', { name: 'Pending invitations' });
    expect(screen.queryByRole('button', { name: 'Invite someone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Edit|Remove|Revoke)/ })).not.toBeInTheDocument();
  });

  it("changes a member's role", async () => {
    const { api, user } = await renderMembers({
      'PATCH /api/v1/members/:id': () => json(200, { data: { ...BO, role: 'viewer' }, status: 200 }),
    });

    await user.click(screen.getByRole('button', { name: 'Edit Bo Chen' }));
    const dialog = screen.getByRole('dialog', { name: 'Change the role of Bo Chen' });
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'Viewer');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Role saved: Bo Chen')).toBeInTheDocument();
    expect(api.to('PATCH', '/api/v1/members/8')[0]?.body).toBe('{"role":"viewer"}');
  });

  it('says why a role change is refused: only an owner touches an owner, and the last owner stays', async () => {
    let tries = 0;
    const { user } = await renderMembers(
      {
        'PATCH /api/v1/members/:id': () => {
          tries += 1;
          return tries === 1
            ? FORBIDDEN()
            : json(422, { message: { role: ['The workspace must keep an owner.'] }, status: 422 });
        },
      },
      'admin',
    );

    await user.click(screen.getByRole('button', { name: 'Edit Ann Lee' }));
    const dialog = screen.getByRole('dialog', { name: 'Change the role of Ann Lee' });
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'Editor');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only an owner may change, remove or invite an owner.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const role = within(dialog).getByLabelText('Role');
    await waitFor(() => expect(role).toHaveAccessibleDescription('The workspace must keep an owner.'));
    expect(role).toHaveFocus();
  });

  it('says why a removal is refused, in the dialog that asked', async () => {
    let tries = 0;
    const { api, user } = await renderMembers({
      'DELETE /api/v1/members/:id': () => {
        tries += 1;
        return tries === 1
          ? FORBIDDEN()
          : json(422, { message: { role: ['The workspace must keep an owner.'] }, status: 422 });
      },
    });

    await user.click(screen.getByRole('button', { name: 'Remove Ann Lee' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove this member?' });
    expect(within(dialog).getByText(/This is you/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only an owner may change, remove or invite an owner.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('The workspace must keep an owner.'),
    );
    expect(api.to('DELETE', '/api/v1/members/7')).toHaveLength(2);
  });

  it('invites a person and shows the link to accept once, saying it is also mailed where mail is set up', async () => {
    let invited = false;
    const acceptUrl = 'https://sho.rt/app/accept-invitation?token=lsi_new';
    const { api, user } = await renderMembers({
      'GET /api/v1/invitations': () =>
        json(
          200,
          listOf(invited ? [INVITATION, { ...INVITATION, id: 5, email: 'di@example.com' }] : [INVITATION]),
        ),
      'POST /api/v1/invitations': () => {
        invited = true;
        return json(201, {
          data: {
            id: 5,
            email: 'di@example.com',
            role: 'viewer',
            expires_at: AT,
            created_at: AT,
            accept_url: acceptUrl,
          },
          status: 200,
        });
      },
    });

    await user.click(screen.getByRole('button', { name: 'Invite someone' }));
    const form = screen.getByRole('dialog', { name: 'Invite someone' });
    await user.type(within(form).getByLabelText('Email'), 'di@example.com');
    await user.selectOptions(within(form).getByLabelText('Role'), 'Viewer');
    await user.click(within(form).getByRole('button', { name: 'Invite' }));

    const shown = await screen.findByRole('dialog', { name: 'Invitation for di@example.com' });
    expect(within(shown).getByTestId('secret')).toHaveTextContent(acceptUrl);
    expect(shown).toHaveTextContent(
      'Send this link to them; it is also emailed when the server has mail set up.',
    );
    expect(within(shown).getByRole('button', { name: 'Copy invitation link' })).toBeInTheDocument();
    expect(JSON.parse(api.to('POST', '/api/v1/invitations')[0]?.body ?? '')).toEqual({
      email: 'di@example.com',
      role: 'viewer',
    });
    expect(await screen.findByRole('rowheader', { name: 'di@example.com' })).toBeInTheDocument();
  });

  it('revokes an invitation, asked first', async () => {
    let revoked = false;
    const { api, user } = await renderMembers({
      'GET /api/v1/invitations': () => json(200, listOf(revoked ? [] : [INVITATION])),
      'DELETE /api/v1/invitations/:id': () => {
        revoked = true;
        return json(200, { id: 4, object: 'invitation', deleted: true, status: 200 });
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Revoke cy@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke this invitation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));

    expect(await screen.findByText('No pending invitations.')).toBeInTheDocument();
    expect(screen.getByText('Invitation revoked: cy@example.com')).toBeInTheDocument();
    expect(api.to('DELETE', '/api/v1/invitations/4')).toHaveLength(1);
  });

  it("lets the owner ask every member for a second factor, and tells the others the workspace's choice", async () => {
    let required = 0;
    const requirement = {
      'GET /api/v1/account/two-factor': () => json(200, { data: { required }, status: 200 }),
      'PUT /api/v1/account/two-factor': (request: { body: string | null }) => {
        required = (JSON.parse(request.body ?? '{}') as { required: 0 | 1 }).required;
        return json(200, { data: { required }, status: 200 });
      },
    };
    const { api, user } = await renderMembers(requirement);

    const choice = await screen.findByRole('checkbox', {
      name: 'Every member signs in with a second factor',
    });
    expect(choice).not.toBeChecked();
    await user.click(choice);

    expect(await screen.findByText('A second factor is now required of every member.')).toBeInTheDocument();
    expect(api.to('PUT', '/api/v1/account/two-factor')[0]?.body).toBe('{"required":1}');
    await waitFor(() => expect(choice).toBeChecked());
  });

  it('tells a member who is not the owner whether a second factor is required, without a control', async () => {
    await renderMembers(
      { 'GET /api/v1/account/two-factor': () => json(200, { data: { required: 1 }, status: 200 }) },
      'admin',
    );

    expect(await screen.findByText(/Every member signs in with a second factor:/)).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
