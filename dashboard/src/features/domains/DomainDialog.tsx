import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Domain } from '../../api/types';
import { Field } from '../../components/Field';
import { editOrNewTitle, FormDialog, useDialogForm } from '../../components/FormDialog';
import { UrlInput, withScheme } from '../../components/UrlInput';
import { useI18n } from '../../i18n/I18nProvider';

const DOMAIN_FIELDS = [
  'name',
  'index_page',
  'not_found_page',
  'apple_app_site_association',
  'assetlinks',
] as const;

/** The apps' files, each a JSON document of at most 64 KB, as the API takes them. */
const APP_FILES = [
  { field: 'apple_app_site_association', path: '/.well-known/apple-app-site-association' },
  { field: 'assetlinks', path: '/.well-known/assetlinks.json' },
] as const;
const MAX_APP_FILE = 64 * 1024;

interface DomainDialogProps {
  domain: Domain | null;
  onClose: () => void;
  onSaved: (domain: Domain) => void;
}

/** A new domain takes a host name; afterwards only its two pages and its apps' files can change. */
export function DomainDialog({ domain, onClose, onSaved }: DomainDialogProps) {
  const { t } = useI18n();
  const [name, setName] = useState(domain?.name ?? '');
  const [indexPage, setIndexPage] = useState(domain?.index_page ?? '');
  const [notFoundPage, setNotFoundPage] = useState(domain?.not_found_page ?? '');
  const [appFiles, setAppFiles] = useState({
    apple_app_site_association: domain?.apple_app_site_association ?? '',
    assetlinks: domain?.assetlinks ?? '',
  });

  const save = async () => {
    const pages = {
      index_page: indexPage.trim() === '' ? null : withScheme(indexPage),
      not_found_page: notFoundPage.trim() === '' ? null : withScheme(notFoundPage),
      // Sent as typed: the API says which is no JSON document.
      apple_app_site_association: appFiles.apple_app_site_association.trim() || null,
      assetlinks: appFiles.assetlinks.trim() || null,
    };
    const saved = domain
      ? await call(api.PUT('/api/v1/domains/{id}', { params: { path: { id: domain.id } }, body: pages }))
      : await call(api.POST('/api/v1/domains', { body: { name: name.trim(), ...pages } }));
    onSaved(saved.data);
  };
  const form = useDialogForm(DOMAIN_FIELDS, save);

  return (
    <FormDialog title={editOrNewTitle(t.domains, domain)} form={form} onClose={onClose}>
      <Field
        label={t.domains.hostname}
        {...form.field('name')}
        hint={domain ? t.domains.hostnameFixed : t.domains.hostnameHint}
      >
        {(control) => (
          <input
            {...control}
            required
            readOnly={domain !== null}
            autoCapitalize="off"
            spellCheck={false}
            placeholder="go.example.com"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <Field label={t.domains.indexPage} {...form.field('index_page')} hint={t.domains.indexPageHint}>
        {(control) => <UrlInput {...control} maxLength={2048} value={indexPage} onChange={setIndexPage} />}
      </Field>
      <Field
        label={t.domains.notFoundPage}
        {...form.field('not_found_page')}
        hint={t.domains.notFoundPageHint}
      >
        {(control) => (
          <UrlInput {...control} maxLength={2048} value={notFoundPage} onChange={setNotFoundPage} />
        )}
      </Field>
      {APP_FILES.map(({ field, path }) => (
        <Field
          key={field}
          label={t.domains.appFile(path)}
          {...form.field(field)}
          hint={t.domains.appFileHint}
        >
          {(control) => (
            <textarea
              {...control}
              rows={4}
              spellCheck={false}
              maxLength={MAX_APP_FILE}
              value={appFiles[field]}
              onChange={(event) => setAppFiles((files) => ({ ...files, [field]: event.target.value }))}
            />
          )}
        </Field>
      ))}
    </FormDialog>
  );
}
