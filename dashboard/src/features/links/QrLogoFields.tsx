import { useState, type ChangeEvent } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/describe';
import { isApiError } from '../../api/errors';
import type { Link } from '../../api/types';
import { Choices } from '../../components/Choices';
import { Checkbox, Field } from '../../components/Field';
import { useNotify } from '../../components/Notifications';
import { useT } from '../../i18n/I18nProvider';
import { useCan, useSession } from '../../session/SessionProvider';
import { LOGO_TYPES, logoFileProblem } from './qrDesign';

/** Whose logo an upload replaces and the removal removes: the link's own, or the workspace's (its links' default). */
const LOGO_OWNERS = ['link', 'workspace'] as const;
type LogoOwner = (typeof LOGO_OWNERS)[number];

interface QrLogoFieldsProps {
  link: Link;
  drawn: boolean;
  onDrawn: (drawn: boolean) => void;
  /** The API's messages on `logo` about the code (no logo to draw, an SVG logo in a PNG code). */
  errors: string[] | undefined;
  /** A logo was uploaded or removed: the code is to be drawn again, with it when there is one. */
  onChanged: (uploaded: boolean) => void;
}

/**
 * The logo in the middle of the code: whether it is drawn, and for writers the upload and removal of the link's
 * logo or the workspace's. The workspace's is for sessions that reach every space, as the API allows.
 */
export function QrLogoFields({ link, drawn, onDrawn, errors, onChanged }: QrLogoFieldsProps) {
  const t = useT();
  const can = useCan();
  const session = useSession();
  const notify = useNotify();
  const mayWrite = can('links.write');
  const mayWorkspace = mayWrite && session.space_ids.length === 0;
  const [owner, setOwner] = useState<LogoOwner>('link');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);

  /** Runs an upload or a removal; a refusal is shown at the file, in the API's words where it has them. */
  const send = async (request: () => Promise<unknown>, uploaded: boolean) => {
    // Left enabled while one runs, so that the focus stays where it was; a second is not started.
    if (busy) return;
    setBusy(true);
    setProblems([]);
    try {
      await request();
      onChanged(uploaded);
      notify(uploaded ? t.qr.logoUploaded : t.qr.logoRemoved);
    } catch (error) {
      const fields = isApiError(error) && error.status === 422 ? error.fields.logo : undefined;
      const tooLarge = isApiError(error) && error.status === 413;
      setProblems(fields ?? [tooLarge ? t.qr.logoTooLarge : describeError(t, error)]);
    } finally {
      setBusy(false);
    }
  };

  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (file === undefined) return;
    // The same file chosen again after a refusal is a change too.
    input.value = '';
    const problem = logoFileProblem(file);
    if (problem !== null) {
      setProblems([problem === 'size' ? t.qr.logoTooLarge : t.qr.logoType]);
      return;
    }
    void send(async () => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      // The document types the image body as a string (how `format: binary` is generated): its bytes are sent.
      const body = { body: '', bodySerializer: () => bytes, headers: { 'Content-Type': file.type } };
      return call(
        owner === 'link'
          ? api.PUT('/api/v1/links/{id}/qr-logo', { params: { path: { id: link.id } }, ...body })
          : api.PUT('/api/v1/account/qr-logo', body),
      );
    }, true);
  };

  const remove = () =>
    void send(
      () =>
        call(
          owner === 'link'
            ? api.DELETE('/api/v1/links/{id}/qr-logo', { params: { path: { id: link.id } } })
            : api.DELETE('/api/v1/account/qr-logo'),
        ),
      false,
    );

  return (
    <fieldset className="qr-logo" aria-busy={busy}>
      <legend>{t.qr.logo}</legend>
      <Checkbox
        label={t.qr.drawLogo}
        hint={t.qr.drawLogoHint}
        checked={drawn}
        onChange={onDrawn}
        errors={errors}
      />
      {mayWrite && (
        <>
          <Choices
            legend={t.qr.keepWith}
            options={LOGO_OWNERS}
            value={owner}
            onChange={setOwner}
            label={(choice) => (choice === 'link' ? t.qr.keepWithLink : t.qr.keepWithWorkspace)}
            disabled={(choice) => choice === 'workspace' && !mayWorkspace}
            hint={mayWorkspace ? null : t.qr.workspaceLogoRefused}
          />
          <Field label={t.qr.logoFile} errors={problems}>
            {(control) => <input {...control} type="file" accept={LOGO_TYPES.join(',')} onChange={upload} />}
          </Field>
          <button type="button" className="danger" onClick={remove}>
            {owner === 'link' ? t.qr.removeLinkLogo : t.qr.removeWorkspaceLogo}
          </button>
          <p role="status" className="sr-only">
            {busy ? t.common.saving : ''}
          </p>
        </>
      )}
    </fieldset>
  );
}
