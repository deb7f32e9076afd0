import { useState } from 'react';
import { useLocation } from 'wouter';
import { api, call } from '../../api/client';
import type { Link } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { LoadError, Loading } from '../../components/LoadState';
import { useNotify } from '../../components/Notifications';
import { PageTitle } from '../../components/PageTitle';
import { useLoad } from '../../hooks/useLoad';
import { useT } from '../../i18n/I18nProvider';
import { LinkForm } from './LinkForm';

/** /links/new: the form, empty. */
export function NewLinkPage() {
  return <NewLink />;
}

/** A new link's page: the form, empty or with another link's values (Duplicate). */
function NewLink({ copyOf }: { copyOf?: Link }) {
  const t = useT();
  const notify = useNotify();
  const [, navigate] = useLocation();
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={copyOf ? t.links.duplicateTitle(copyOf.alias) : t.links.newLink} />
      </header>
      <LinkForm
        copyOf={copyOf}
        onSaved={(link) => {
          notify(t.links.created(link.short_url));
          navigate('/links');
        }}
        onCancel={() => navigate('/links')}
      />
    </section>
  );
}

/** /links/:id/duplicate: a new link's form, with the values of link `id` but its alias and passwords. */
export function DuplicateLinkPage({ id }: { id: number }) {
  const t = useT();
  const link = useLoad(`link:${id}`, (signal) =>
    call(api.GET('/api/v1/links/{id}', { params: { path: { id } }, signal })),
  );
  if (link.error !== undefined) {
    return (
      <section className="page">
        <PageTitle text={t.links.newLink} />
        <LoadError error={link.error} onRetry={link.reload} />
      </section>
    );
  }
  if (link.loading || !link.data) {
    return (
      <section className="page">
        <Loading />
      </section>
    );
  }
  return <NewLink copyOf={link.data.data} />;
}

/** /links/:id/edit: the form with the link's values, and its deletion. */
export function EditLinkPage({ id }: { id: number }) {
  const t = useT();
  const link = useLoad(`link:${id}`, (signal) =>
    call(api.GET('/api/v1/links/{id}', { params: { path: { id } }, signal })),
  );
  return (
    <section className="page">
      {link.error !== undefined && <LoadError error={link.error} onRetry={link.reload} />}
      {link.loading && <Loading />}
      {!link.loading && link.data && <EditLink link={link.data.data} />}
      {!link.loading && !link.data && <PageTitle text={t.links.edit} />}
    </section>
  );
}

function EditLink({ link }: { link: Link }) {
  const t = useT();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const [deleting, setDeleting] = useState(false);

  const remove = async () => {
    await call(api.DELETE('/api/v1/links/{id}', { params: { path: { id: link.id } } }));
    notify(t.links.deleted(link.short_url));
    navigate('/links');
  };

  return (
    <>
      <header className="page-header">
        <PageTitle text={t.links.editTitle(link.alias)} />
        <div className="page-actions">
          <CopyButton text={link.short_url} what={link.short_url} />
          <button type="button" className="danger" onClick={() => setDeleting(true)}>
            {t.common.delete}
          </button>
        </div>
      </header>
      <p className="short-url-line">
        <a href={link.short_url} target="_blank" rel="noreferrer">
          {link.short_url}
        </a>
      </p>
      <LinkForm
        link={link}
        onSaved={(saved) => {
          notify(t.links.saved(saved.short_url));
          navigate('/links');
        }}
        onCancel={() => navigate('/links')}
      />
      {deleting && (
        <ConfirmDialog
          title={t.links.deleteTitle}
          confirmLabel={t.common.delete}
          onConfirm={remove}
          onClose={() => setDeleting(false)}
        >
          <p>{t.links.deleteConfirm(link.short_url)}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
