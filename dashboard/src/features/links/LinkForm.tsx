import { useLayoutEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/describe';
import { LinkPrivacyValues } from '../../api/enums';
import { errorsUnder, isApiError, withoutFields, type FieldErrors } from '../../api/errors';
import type { Link, LinkPrivacy } from '../../api/types';
import { Checkbox, Field, FieldErrors as ErrorList, FormAlert } from '../../components/Field';
import { labelledOptions, namedOptions, Options } from '../../components/FilterSelect';
import { NumberInput } from '../../components/NumberInput';
import { UrlInput, withScheme } from '../../components/UrlInput';
import { useT } from '../../i18n/I18nProvider';
import { TagInput } from '../tags/TagInput';
import { tagColors } from '../tags/tagNames';
import { UtmBuilder } from '../utm/UtmBuilder';
import { UTM_FIELDS } from '../utm/utm';
import {
  copiedLinkForm,
  createBody,
  emptyLinkForm,
  isShownField,
  linkFormOf,
  updateBody,
  type LinkExtra,
  type LinkFormValues,
} from './linkForm';
import { TargetingEditor } from './TargetingEditor';
import { useChoices } from './useChoices';

interface LinkFormProps {
  /** The link to edit; absent to create one. */
  link?: Link;
  /** A link whose values a new one starts from (Duplicate); only without `link`. */
  copyOf?: Link;
  onSaved: (link: Link) => void;
  onCancel: () => void;
}

/** Every field the link API takes, with the API's 422 messages beside the fields they name. */
export function LinkForm({ link, copyOf, onSaved, onCancel }: LinkFormProps) {
  const t = useT();
  const { spaces, domains, pixels, tags } = useChoices();
  const [values, setValues] = useState<LinkFormValues>(() =>
    link ? linkFormOf(link) : copyOf ? copiedLinkForm(copyOf) : emptyLinkForm(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const editing = link !== undefined;

  // After a refusal, the first field it names takes focus, its messages beside it.
  useLayoutEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  // A change forgets the API's messages about the value sent: they would be read as about the new one.
  const set = <K extends keyof LinkFormValues>(name: K, value: LinkFormValues[K]) => {
    setValues((previous) => ({ ...previous, [name]: value }));
    setErrors((previous) => withoutFields(previous, API_FIELDS[name]));
  };

  const setExtra = (name: LinkExtra, value: string) => {
    setValues((previous) => ({ ...previous, extras: { ...previous.extras, [name]: value } }));
    setErrors((previous) => withoutFields(previous, [name]));
  };
  /** A text control bound to one of the §13 fields: its value, change, label, messages and length. */
  const extra = (name: LinkExtra) => (
    <Field key={name} label={t.linkForm.extras[name]} errors={errors[name]}>
      {(control) =>
        name === 'notes' || name === 'og_description' ? (
          <textarea
            {...control}
            rows={name === 'notes' ? 4 : 2}
            maxLength={EXTRA_LENGTHS[name]}
            value={values.extras[name]}
            onChange={(event) => setExtra(name, event.target.value)}
          />
        ) : (
          <input
            {...control}
            type={name.endsWith('_url') ? 'url' : 'text'}
            maxLength={EXTRA_LENGTHS[name]}
            value={values.extras[name]}
            onChange={(event) => setExtra(name, event.target.value)}
          />
        )
      }
    </Field>
  );

  /** A text control's value and change, bound to one of the form's text values. */
  const bound = (name: NamesOf<string>) => ({
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => set(name, event.target.value),
  });
  /** A checkbox's state and change, bound to one of the form's yes-or-no values. */
  const ticked = (name: NamesOf<boolean>) => ({
    checked: values[name],
    onChange: (checked: boolean) => set(name, checked),
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setMessage(null);
    try {
      const saved = link
        ? await call(
            api.PUT('/api/v1/links/{id}', { params: { path: { id: link.id } }, body: updateBody(values) }),
          )
        : await call(api.POST('/api/v1/links', { body: createBody(values) }));
      onSaved(saved.data);
    } catch (error) {
      setSaving(false);
      setMessage(describeError(t, error));
      if (isApiError(error) && error.status === 422) setErrors(error.fields);
    }
  };

  /** The browser's message for a date left empty beside the other one: the API takes both or neither. */
  const bothDates = (own: string, other: string) => (input: HTMLInputElement | null) =>
    input?.setCustomValidity(own === '' && other !== '' ? t.linkForm.activePeriodBoth : '');

  const unshown = Object.fromEntries(Object.entries(errors).filter(([field]) => !isShownField(field)));
  const pixelErrors = errorsUnder(errors, 'pixel_ids');

  return (
    <form
      ref={formRef}
      className="form link-form"
      onSubmit={(event) => void submit(event)}
      aria-busy={saving}
    >
      <FormAlert message={message} errors={unshown} />

      <fieldset>
        <legend>{t.linkForm.destination}</legend>
        <Field label={t.linkForm.url} errors={errors.url} hint={t.linkForm.urlHint}>
          {(control) => (
            <UrlInput
              {...control}
              required
              maxLength={2048}
              value={values.url}
              onChange={(url) => set('url', url)}
            />
          )}
        </Field>
        <Field label={t.linkForm.title} errors={errors.title} hint={t.linkForm.titleHint}>
          {(control) => <input {...control} maxLength={255} {...bound('title')} />}
        </Field>
      </fieldset>

      <fieldset>
        <legend>{t.linkForm.shortLink}</legend>
        {domains.length > 0 && (
          <Field
            label={t.linkForm.domain}
            errors={[...(errors.domain_id ?? []), ...(errors.domain ?? [])]}
            hint={editing ? t.linkForm.domainFixed : undefined}
          >
            {(control) => (
              <select {...control} disabled={editing} {...bound('domainId')}>
                {!editing && <option value="">{t.linkForm.defaultDomain}</option>}
                <Options options={namedOptions(domains, editing ? link?.domain : null)} />
              </select>
            )}
          </Field>
        )}
        <Field label={t.linkForm.alias} errors={errors.alias} hint={t.linkForm.aliasHint}>
          {(control) => (
            <input
              {...control}
              maxLength={255}
              pattern="[A-Za-z0-9_\-]+"
              autoCapitalize="off"
              spellCheck={false}
              {...bound('alias')}
            />
          )}
        </Field>
      </fieldset>

      <fieldset>
        <legend>{t.linkForm.organise}</legend>
        {(spaces.length > 0 || values.spaceId !== '') && (
          <Field label={t.linkForm.space} errors={errors.space_id}>
            {(control) => (
              <select {...control} {...bound('spaceId')}>
                <option value="">{t.linkForm.noSpace}</option>
                <Options options={namedOptions(spaces, link?.space)} />
              </select>
            )}
          </Field>
        )}
        <TagInput
          label={t.linkForm.tags}
          value={values.tags}
          onChange={(names) => set('tags', names)}
          colors={tagColors(tags)}
          hint={t.tags.inputHint}
          errors={errorsUnder(errors, 'tags')}
        />
        {pixels.length > 0 && (
          <fieldset className="checks">
            <legend>{t.linkForm.pixels}</legend>
            {pixels.map((pixel) => (
              <Checkbox
                key={pixel.id}
                label={`${pixel.name} (${pixel.type})`}
                checked={values.pixelIds.includes(pixel.id)}
                onChange={(checked) =>
                  set(
                    'pixelIds',
                    checked
                      ? [...values.pixelIds, pixel.id]
                      : values.pixelIds.filter((id) => id !== pixel.id),
                  )
                }
              />
            ))}
            <ErrorList errors={pixelErrors} />
          </fieldset>
        )}
        <Checkbox
          label={t.linkForm.archived}
          hint={t.linkForm.archivedHint}
          {...ticked('archived')}
          errors={errors.archived}
        />
      </fieldset>

      <fieldset>
        <legend>{t.linkForm.visitors}</legend>
        <Field
          label={t.linkForm.redirectPassword}
          errors={errors.redirect_password}
          hint={values.hasRedirectPassword ? t.linkForm.passwordKept : t.linkForm.redirectPasswordHint}
        >
          {(control) => (
            <input
              {...control}
              {...NEW_PASSWORD}
              disabled={values.removeRedirectPassword}
              {...bound('redirectPassword')}
            />
          )}
        </Field>
        {values.hasRedirectPassword && (
          <Checkbox label={t.linkForm.removeRedirectPassword} {...ticked('removeRedirectPassword')} />
        )}
        <Checkbox
          label={t.linkForm.sensitive}
          hint={t.linkForm.sensitiveHint}
          {...ticked('sensitive')}
          errors={errors.sensitive_content}
        />
        <Checkbox
          label={t.linkForm.disabled}
          hint={t.linkForm.disabledHint}
          {...ticked('disabled')}
          errors={errors.disabled}
        />
      </fieldset>

      <fieldset>
        <legend>{t.linkForm.statsPrivacy}</legend>
        <Field label={t.linkForm.privacy} errors={errors.privacy}>
          {(control) => (
            <select
              {...control}
              value={String(values.privacy)}
              onChange={(event) => set('privacy', Number(event.target.value) as LinkPrivacy)}
            >
              <Options options={labelledOptions(LinkPrivacyValues, t.linkForm.privacyOptions)} />
            </select>
          )}
        </Field>
        {values.privacy === 2 && (
          <Field
            label={t.linkForm.statsPassword}
            errors={errors.password}
            hint={values.hasStatsPassword ? t.linkForm.passwordKept : undefined}
          >
            {(control) => (
              <input
                {...control}
                {...NEW_PASSWORD}
                required={!values.hasStatsPassword}
                {...bound('statsPassword')}
              />
            )}
          </Field>
        )}
      </fieldset>

      <fieldset>
        <legend>{t.linkForm.expiry}</legend>
        <p className="hint">{t.linkForm.expiryHint}</p>
        <p className="hint">{t.linkForm.activePeriodHint}</p>
        <div className="field-row">
          {ACTIVE_PERIOD.map(({ own, other, field }) => (
            <Field key={own} label={t.linkForm[own]} errors={errors[field]}>
              {(control) => (
                <input
                  {...control}
                  ref={bothDates(values[own], values[other])}
                  type="datetime-local"
                  required={values[other] !== ''}
                  min={own === 'activeEnd' ? values.activeStart || undefined : undefined}
                  {...bound(own)}
                />
              )}
            </Field>
          ))}
        </div>
        <Field label={t.linkForm.clicksLimit} errors={errors.clicks_limit} hint={t.linkForm.clicksLimitHint}>
          {(control) => (
            <NumberInput {...control} min={0} max={999999999} step={1} {...bound('clicksLimit')} />
          )}
        </Field>
        <Field
          label={t.linkForm.expirationUrl}
          errors={errors.expiration_url}
          hint={t.linkForm.expirationUrlHint}
        >
          {(control) => (
            <UrlInput
              {...control}
              maxLength={2048}
              value={values.expirationUrl}
              onChange={(url) => set('expirationUrl', url)}
            />
          )}
        </Field>
      </fieldset>

      <TargetingEditor
        value={values.targeting}
        onChange={(targeting) => set('targeting', targeting)}
        errors={errors}
      />

      <fieldset>
        <legend>{t.linkForm.campaign}</legend>
        <p className="hint">{t.linkForm.campaignHint}</p>
        <UtmBuilder
          url={values.url}
          values={values.extras}
          onApply={(utm) => {
            setValues((previous) => ({ ...previous, extras: { ...previous.extras, ...utm } }));
            setErrors((previous) => withoutFields(previous, UTM_FIELDS));
          }}
        >
          {UTM_FIELDS.map(extra)}
        </UtmBuilder>
      </fieldset>

      <fieldset>
        <legend>{t.linkForm.apps}</legend>
        <p className="hint">{t.linkForm.appsHint}</p>
        <div className="field-row">{APPS.map(extra)}</div>
      </fieldset>

      <fieldset>
        <legend>{t.linkForm.socialPreview}</legend>
        <p className="hint">{t.linkForm.socialPreviewHint}</p>
        {PREVIEW.map(extra)}
        <PreviewCard
          title={values.extras.og_title || values.title}
          description={values.extras.og_description}
          image={values.extras.og_image_url}
          host={hostOf(values.url)}
          label={t.linkForm.previewCard}
        />
      </fieldset>

      {extra('notes')}

      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? t.common.saving : t.common.save}
        </button>
        <button type="button" onClick={onCancel}>
          {t.common.cancel}
        </button>
      </div>
    </form>
  );
}

const APPS = ['ios_url', 'android_url'] as const;
const PREVIEW = ['og_title', 'og_description', 'og_image_url'] as const;

/** The longest each §13 field may be, as the API checks it. */
const EXTRA_LENGTHS: Record<LinkExtra, number> = {
  utm_source: 255,
  utm_medium: 255,
  utm_campaign: 255,
  utm_term: 255,
  utm_content: 255,
  ios_url: 2048,
  android_url: 2048,
  og_title: 200,
  og_description: 500,
  og_image_url: 2048,
  notes: 2000,
};

function hostOf(url: string): string {
  try {
    return new URL(withScheme(url)).host;
  } catch {
    return '';
  }
}

/**
 * How the card will look where the link is shared: the image (an https one only, as the API takes), the title, the
 * description and the destination's host. Text only, as React writes it: nothing typed becomes markup.
 */
function PreviewCard(props: {
  title: string;
  description: string;
  image: string;
  host: string;
  label: string;
}) {
  const image = props.image.startsWith('https://') ? props.image : '';
  return (
    <figure className="preview-card" aria-label={props.label}>
      {image !== '' && <img src={image} alt="" referrerPolicy="no-referrer" />}
      <figcaption>
        <span className="preview-card-host">{props.host}</span>
        <strong>{props.title}</strong>
        {props.description !== '' && <span>{props.description}</span>}
      </figcaption>
    </figure>
  );
}

/** A password the form sets (the link's or its stats'), as long as the API takes. */
const NEW_PASSWORD = { type: 'password', autoComplete: 'new-password', maxLength: 128 } as const;

/** The active period's two ends, each required once the other is given. */
const ACTIVE_PERIOD = [
  { own: 'activeStart', other: 'activeEnd', field: 'active_period_start_at' },
  { own: 'activeEnd', other: 'activeStart', field: 'active_period_end_at' },
] as const;

/** The form's values that hold a `V`. */
type NamesOf<V> = {
  [K in keyof LinkFormValues]: LinkFormValues[K] extends V ? K : never;
}[keyof LinkFormValues];

/** The API's fields that each value of the form is sent as, whose messages a change of the value makes stale. */
const API_FIELDS: Record<keyof LinkFormValues, readonly string[]> = {
  url: ['url'],
  title: ['title'],
  alias: ['alias'],
  domainId: ['domain_id', 'domain'],
  spaceId: ['space_id'],
  pixelIds: ['pixel_ids'],
  tags: ['tags'],
  archived: ['archived'],
  redirectPassword: ['redirect_password'],
  hasRedirectPassword: [],
  removeRedirectPassword: ['redirect_password'],
  sensitive: ['sensitive_content'],
  disabled: ['disabled'],
  privacy: ['privacy', 'password'],
  statsPassword: ['password'],
  hasStatsPassword: [],
  // The start and the end are checked together (both or neither, the start first).
  activeStart: ['active_period_start_at', 'active_period_end_at'],
  activeEnd: ['active_period_start_at', 'active_period_end_at'],
  clicksLimit: ['clicks_limit'],
  expirationUrl: ['expiration_url'],
  targeting: ['targets_type', 'targets'],
  // Each of them clears its own field's messages (see setExtra).
  extras: [],
};
