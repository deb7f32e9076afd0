import { useState } from 'react';
import { api, call } from '../../api/client';
import type { Domain } from '../../api/types';
import { Field } from '../../components/Field';
import { FormDialog } from '../../components/FormDialog';
import { UrlInput, withScheme } from '../../components/UrlInput';
import { useSubmit } from '../../hooks/useSubmit';
import { useI18n } from '../../i18n/I18nProvider';

const DOMAIN_FIELDS = ['name', 'index_page', 'not_found_page'] as const;

interface DomainDialogProps {
  domain: Domain | null;
  onClose: () => void;
  onSaved: (domain: Domain) => void;
}

/** A new domain takes a host name; afterwards only its two pages can change. */
export function DomainDialog({ domain, onClose, onSaved }: DomainDialogProps) {
  const { t } = useI18n();
  const submission = useSubmit(DOMAIN_FIELDS);
  const title = domain ? t.domains.editTitle(domain.name) : t.domains.new;
  const [name, setName] = useState(domain?.name ?? '');
  const [indexPage, setIndexPage] = useState(domain?.index_page ?? '');
  const [notFoundPage, setNotFoundPage] = useState(domain?.not_found_page ?? '');

  const save = async () => {
    const pages = {
      index_page: indexPage.trim() === '' ? null : withScheme(indexPage),
      not_found_page: notFoundPage.trim() === '' ? null : withScheme(notFoundPage),
    };
    const saved = domain
      ? await call(api.PUT('/api/v1/domains/{id}', { params: { path: { id: domain.id } }, body: pages }))
      : await call(api.POST('/api/v1/domains', { body: { name: name.trim(), ...pages } }));
    onSaved(saved.data);
  };

  return (
    <FormDialog title={title} submission={submission} onSave={save} onClose={onClose}>
      <Field
        label={t.domains.hostname}
        {...submission.field('name')}
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
      <Field label={t.domains.indexPage} {...submission.field('index_page')} hint={t.domains.indexPageHint}>
        {(control) => <UrlInput {...control} maxLength={2048} value={indexPage} onChange={setIndexPage} />}
      </Field>
      <Field
        label={t.domains.notFoundPage}
        {...submission.field('not_found_page')}
        hint={t.domains.notFoundPageHint}
      >
        {(control) => (
          <UrlInput {...control} maxLength={2048} value={notFoundPage} onChange={setNotFoundPage} />
        )}
      </Field>
    </FormDialog>
  );
}
