import { api, call, deleteById } from '../../api/client';
import { DomainSearchByValues, DomainSortByValues } from '../../api/enums';
import type { Domain } from '../../api/types';
import { deletion } from '../../components/RemovalDialog';
import { EditAndRemove, ResourceListPage } from '../../components/ResourceListPage';
import { useLoad } from '../../hooks/useLoad';
import { useNamedList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { DomainDialog } from './DomainDialog';

export default function DomainsPage() {
  const { t, dateTime } = useI18n();
  const can = useCan();
  const list = useNamedList(DomainSearchByValues, DomainSortByValues, (query, signal) =>
    call(api.GET('/api/v1/domains', { params: { query }, signal })),
  );
  const serviceDomain = useServiceDomain(can('account.read'));
  return (
    <ResourceListPage
      texts={{ ...t.domains, title: t.nav.domains }}
      list={list}
      mayWrite={can('domains.write')}
      columns={[
        {
          label: t.common.name,
          cell: (domain) => (
            <a href={domain.url} target="_blank" rel="noreferrer">
              {domain.name}
            </a>
          ),
        },
        { label: t.domains.indexPage, className: 'url-cell', cell: (domain) => domain.index_page ?? '—' },
        {
          label: t.domains.notFoundPage,
          className: 'url-cell',
          cell: (domain) => domain.not_found_page ?? '—',
        },
        { label: t.common.created, cell: (domain) => dateTime(domain.created_at) },
      ]}
      actions={(domain, open) =>
        serviceDomain(domain) ? (
          <span className="hint">{t.domains.shared}</span>
        ) : (
          <EditAndRemove name={domain.name} open={open} removeLabel={t.common.delete} />
        )
      }
      form={(domain, onSaved, onClose) => (
        <DomainDialog domain={domain} onClose={onClose} onSaved={onSaved} />
      )}
      removal={deletion(t, t.domains, deleteById('/api/v1/domains/{id}'))}
    />
  );
}

/**
 * Whether a domain is the service's own, which every account shares and none may change. The API does not mark
 * it in a domain (its fields are phpShort's), but the account's default domain is that one; a key that cannot
 * read the account goes by the host the dashboard is served from, which is the service's own.
 */
function useServiceDomain(mayReadAccount: boolean): (domain: Domain) => boolean {
  const account = useLoad(mayReadAccount ? 'account' : null, (signal) =>
    call(api.GET('/api/v1/account', { signal })),
  );
  const defaultId = account.data?.data.default_domain;
  return (domain) =>
    defaultId === undefined ? domain.name === window.location.host : domain.id === defaultId;
}
