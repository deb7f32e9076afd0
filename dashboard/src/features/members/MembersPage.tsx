import { useState } from 'react';
import { api, call, deleteById } from '../../api/client';
import type { Member } from '../../api/types';
import { nameColumn } from '../../components/DataTable';
import { ResourceListPage } from '../../components/ResourceListPage';
import { SecretDialog } from '../../components/SecretDialog';
import { LIST_DEFAULTS, pageQuery } from '../../hooks/listQuery';
import { useLoad } from '../../hooks/useLoad';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan, useSession, useSessionState } from '../../session/SessionProvider';
import { InvitationsSection } from './InvitationsSection';
import { InviteDialog, type Invited } from './InviteDialog';
import { MemberDialog } from './MemberDialog';
import { useMemberRefusals } from './refusals';
import { SecondFactorCard } from './SecondFactorCard';

/** /members: the workspace's people and their roles, and the invitations waiting to be accepted. */
export default function MembersPage() {
  const { t, dateTime } = useI18n();
  const session = useSession();
  const { refresh } = useSessionState();
  const mayWrite = useCan()('members.write');
  // The API sorts the members by the date they joined only, and does not search them.
  const list = useResourceList(LIST_DEFAULTS, pageQuery, (query, signal) =>
    call(api.GET('/api/v1/members', { params: { query }, signal })),
  );
  const [inviting, setInviting] = useState(false);
  const [invited, setInvited] = useState<Invited | null>(null);
  const [invitationPage, setInvitationPage] = useState(1);
  const invitations = useLoad(`invitations:${invitationPage}`, (signal) =>
    call(
      api.GET('/api/v1/invitations', { params: { query: { page: invitationPage, per_page: 25 } }, signal }),
    ),
  );
  const refusals = useMemberRefusals(false);
  /** The reader's own membership. */
  const isOwn = (member: Member) => member.id === session.user?.id;

  return (
    <ResourceListPage
      texts={{ ...t.members, title: t.nav.members }}
      list={list}
      mayWrite={mayWrite}
      searchable={false}
      create={() => setInviting(true)}
      columns={[
        nameColumn(t.common.name, isOwn, t.members.you),
        { label: t.members.email, cell: (member) => member.email },
        { label: t.members.role, cell: (member) => t.members.roles[member.role] },
        {
          label: t.members.twoFactor,
          cell: (member) => (member.two_factor === 1 ? t.members.on : t.members.off),
        },
        { label: t.members.joined, cell: (member) => dateTime(member.joined_at) },
        {
          label: t.members.lastSignIn,
          cell: (member) => (member.last_sign_in_at ? dateTime(member.last_sign_in_at) : t.members.never),
        },
      ]}
      form={(member, onSaved, onClose) =>
        member && (
          <MemberDialog
            member={member}
            onClose={onClose}
            onSaved={(saved) => {
              onSaved(saved);
              // A new role of one's own is new scopes: the session says which, and the screens follow.
              if (isOwn(saved)) void refresh().catch(() => undefined);
            }}
          />
        )
      }
      removal={{
        label: t.members.remove,
        title: t.members.removeTitle,
        confirm: t.members.removeConfirm,
        warning: (member) => isOwn(member) && t.members.removeSelf,
        own: refusals,
        done: t.members.removed,
        run: deleteById('/api/v1/members/{id}'),
      }}
    >
      <InvitationsSection invitations={invitations} onPage={setInvitationPage} mayWrite={mayWrite} />
      <SecondFactorCard />
      {inviting && (
        <InviteDialog
          onClose={() => setInviting(false)}
          onInvited={(made) => {
            setInviting(false);
            setInvited(made);
            invitations.reload();
          }}
        />
      )}
      {invited !== null && (
        <SecretDialog
          title={t.members.inviteLinkTitle(invited.email)}
          secret={invited.acceptUrl}
          what={t.members.inviteLinkWhat}
          note={t.members.inviteNote}
          onClose={() => setInvited(null)}
        />
      )}
    </ResourceListPage>
  );
}
