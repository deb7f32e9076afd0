import { deleteById } from '../../api/client';
import type { Invitation } from '../../api/types';
import { Card } from '../../components/Card';
import { Pagination } from '../../components/Pagination';
import { RowList } from '../../components/RowList';
import type { Loaded } from '../../hooks/useLoad';
import type { ListPage } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';

interface InvitationsSectionProps {
  invitations: Loaded<ListPage<Invitation>>;
  onPage: (page: number) => void;
  mayWrite: boolean;
}

/** The invitations not yet accepted, revoked or expired; each may be revoked by whoever may change the members. */
export function InvitationsSection({ invitations, onPage, mayWrite }: InvitationsSectionProps) {
  const { t, dateTime } = useI18n();
  const page = invitations.data;
  const emailOf = (invitation: Invitation) => invitation.email ?? t.members.anyone;

  return (
    <Card title={t.members.invitations}>
      <RowList
        loaded={invitations}
        rows={page?.data}
        caption={t.members.invitations}
        empty={t.members.invitationsEmpty}
        rowName={emailOf}
        columns={[
          { label: t.members.email, cell: emailOf },
          { label: t.members.role, cell: (invitation) => t.members.roles[invitation.role] },
          { label: t.members.sent, cell: (invitation) => dateTime(invitation.created_at) },
          { label: t.members.expires, cell: (invitation) => dateTime(invitation.expires_at) },
        ]}
        removal={
          mayWrite
            ? {
                label: t.members.revoke,
                title: t.members.revokeTitle,
                confirm: t.members.revokeConfirm,
                done: t.members.revoked,
                run: deleteById('/api/v1/invitations/{id}'),
              }
            : undefined
        }
      >
        {page && <Pagination meta={page.meta} label={t.members.invitationPages} onPage={onPage} />}
      </RowList>
    </Card>
  );
}
