import { api, call } from '../../api/client';
import { sessionExpiry } from '../../api/session';
import { LoadError, Loading } from '../../components/LoadState';
import { PageTitle } from '../../components/PageTitle';
import { useLoad } from '../../hooks/useLoad';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan, useSession } from '../../session/SessionProvider';

/** The account as the API describes it, and the key this session was opened with. */
export default function AccountPage() {
  const { t, dateTime } = useI18n();
  const can = useCan();
  const session = useSession();
  const account = useLoad(can('account.read') ? 'account' : null, (signal) =>
    call(api.GET('/api/v1/account', { signal })),
  );
  const data = account.data?.data;
  // The account names its default domain by id; a reader knows it by its host name.
  const domainId = data?.default_domain;
  const defaultDomain = useLoad(
    domainId !== undefined && can('domains.read') ? `domain:${domainId}` : null,
    (signal) => call(api.GET('/api/v1/domains/{id}', { params: { path: { id: domainId! } }, signal })),
  );

  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.account} />
      </header>
      {account.error !== undefined && <LoadError error={account.error} onRetry={account.reload} />}
      {account.loading && <Loading />}
      {data && (
        <section className="card" aria-labelledby="account-heading">
          <h2 id="account-heading">{data.name}</h2>
          <dl className="details">
            <dt>{t.account.id}</dt>
            <dd>{data.id}</dd>
            <dt>{t.account.email}</dt>
            <dd>{data.email ?? '—'}</dd>
            <dt>{t.account.locale}</dt>
            <dd>{data.locale}</dd>
            <dt>{t.account.timezone}</dt>
            <dd>{data.timezone}</dd>
            <dt>{t.account.plan}</dt>
            <dd>{data.plan ?? '—'}</dd>
            <dt>{t.account.defaultDomain}</dt>
            <dd>{defaultDomain.data?.data.name ?? data.default_domain}</dd>
            <dt>{t.account.defaultSpace}</dt>
            <dd>{data.default_space ?? '—'}</dd>
            <dt>{t.account.defaultStats}</dt>
            <dd>{t.linkForm.privacyOptions[data.default_stats]}</dd>
            <dt>{t.common.created}</dt>
            <dd>{dateTime(data.created_at)}</dd>
          </dl>
        </section>
      )}
      <section className="card" aria-labelledby="session-heading">
        <h2 id="session-heading">{t.account.session}</h2>
        <dl className="details">
          {session.user !== null && (
            <>
              <dt>{t.account.user}</dt>
              <dd>
                {session.user.name} ({session.user.email})
              </dd>
            </>
          )}
          {session.key !== null && (
            <>
              <dt>{t.account.key}</dt>
              <dd>
                {session.key.name} <code>{session.key.prefix ?? ''}</code>
              </dd>
            </>
          )}
          <dt>{t.account.workspace}</dt>
          <dd>{session.workspace.name}</dd>
          {session.workspace.role !== null && (
            <>
              <dt>{t.account.role}</dt>
              <dd>{t.members.roles[session.workspace.role]}</dd>
            </>
          )}
          <dt>{t.keys.scopes}</dt>
          <dd>{session.scopes.join(', ')}</dd>
          <dt>{t.keys.spaces}</dt>
          <dd>{session.space_ids.length === 0 ? t.keys.everySpace : session.space_ids.join(', ')}</dd>
          <dt>{t.account.sessionEnds}</dt>
          <dd>{session.expires_at ? dateTime(sessionExpiry(session)) : t.account.withKey}</dd>
        </dl>
      </section>
    </section>
  );
}
