import { deleteById } from '../../api/client';
import type { UserSession } from '../../api/types';
import { Card } from '../../components/Card';
import { RowList } from '../../components/RowList';
import type { Loaded } from '../../hooks/useLoad';
import { useI18n } from '../../i18n/I18nProvider';

/** Where the person is signed in, newest first; any session but this one may be ended from here. */
export function SessionsCard({ sessions }: { sessions: Loaded<{ data: UserSession[] }> }) {
  const { t, dateTime } = useI18n();
  const deviceOf = (session: UserSession) => session.user_agent ?? t.profile.unknownDevice;
  return (
    <Card title={t.profile.sessions}>
      <RowList
        loaded={sessions}
        rows={sessions.data?.data}
        caption={t.profile.sessions}
        empty=""
        rowName={deviceOf}
        columns={[
          {
            label: t.profile.device,
            cell: (session) => (
              <>
                <span className="user-agent">{deviceOf(session)}</span>
                {session.current === 1 && <span className="badge">{t.keys.thisSession}</span>}
              </>
            ),
          },
          { label: t.profile.ip, cell: (session) => session.ip ?? '—' },
          { label: t.profile.signedIn, cell: (session) => dateTime(session.created_at) },
          { label: t.profile.ends, cell: (session) => dateTime(session.expires_at) },
        ]}
        removal={{
          label: t.profile.endSession,
          title: t.profile.endTitle,
          confirm: () => t.profile.endConfirm,
          done: t.profile.ended,
          run: deleteById('/api/v1/user/sessions/{id}'),
          removable: (session) => session.current !== 1,
        }}
      />
    </Card>
  );
}
