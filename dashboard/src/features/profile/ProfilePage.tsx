import { api, call } from '../../api/client';
import { LoadError, Loading } from '../../components/LoadState';
import { PageTitle } from '../../components/PageTitle';
import { useLoad } from '../../hooks/useLoad';
import { useT } from '../../i18n/I18nProvider';
import { useSession } from '../../session/SessionProvider';
import { DetailsCard, PasswordCard } from './DetailsCards';
import { PasskeysCard } from './PasskeysCard';
import { SessionsCard } from './SessionsCard';
import { TwoFactorCard } from './TwoFactorCard';

/**
 * /profile: the signed-in person's own account, whatever the workspace: their name and email, their password, the
 * second factors (two-factor codes, passkeys), and where they are signed in.
 */
export default function ProfilePage() {
  const t = useT();
  const session = useSession();
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.profile.title} />
      </header>
      {session.user === null ? <p>{t.profile.keySession}</p> : <Profile />}
    </section>
  );
}

function Profile() {
  const user = useLoad('user', (signal) => call(api.GET('/api/v1/user', { signal })));
  const sessions = useLoad('sessions', (signal) => call(api.GET('/api/v1/user/sessions', { signal })));
  const data = user.data?.data;
  return (
    <>
      {user.error !== undefined && <LoadError error={user.error} onRetry={user.reload} />}
      {data === undefined && user.loading && <Loading />}
      {data !== undefined && (
        <>
          <DetailsCard user={data} />
          <PasswordCard onChanged={sessions.reload} />
          <TwoFactorCard user={data} onChanged={user.reload} />
          <PasskeysCard />
        </>
      )}
      <SessionsCard sessions={sessions} />
    </>
  );
}
