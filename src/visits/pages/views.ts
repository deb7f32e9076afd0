import { html, type Html } from '../../common/html';
import { hostOf, webUrl } from '../../common/url-rules';
import type { SocialPreview } from '../../links/visit-link.repository';
import type { Page } from './page';
import { PIXELS_SCRIPT_PATH } from './pixel-markup';
import type { Translator } from './translator';

/** What a visit carries through the password and consent forms. */
export interface CarriedForm {
  action: string;
  query: string;
  referrer: string;
}

/**
 * Where a link leads, as its interstitials say it: the host of the destination, never its path, or null when it
 * leads to one of several sites (a rotation).
 */
/** What the preview of a link says of it. */
export interface PreviewFacts {
  alias: string;
  shortUrl: string;
  title: string | null;
  destination: string;
  /** A password keeps the destination's address to those who know it: only its host is shown. */
  hidden: boolean;
  active: boolean;
}

export interface LeadsTo {
  /** The short link's domain. */
  domain: string;
  host: string | null;
}

function leadsTo(t: Translator, leads: LeadsTo): Html {
  const domain = html`<strong>${leads.domain}</strong>`;
  return leads.host === null
    ? html`<p class="leads">${t.html('leadsToSeveral', { domain })}</p>`
    : html`<p class="leads">${t.html('leadsTo', { domain, host: html`<strong>${leads.host}</strong>` })}</p>`;
}

/** Back to the page the visitor came from, when it is known; else away to the domain's own page. */
function wayBack(t: Translator, referrer: string, domain: string): Html {
  const back = webUrl(referrer);
  return back === null
    ? html`<a class="back" href="/">${t.text('leaveTo', { domain })}</a>`
    : html`<a class="back" href="${back.href}">${t.text('backTo', { host: back.host })}</a>`;
}

function hiddenFields(form: CarriedForm, token?: string): Html {
  return html`<input type="hidden" name="q" value="${form.query}" />
  <input type="hidden" name="ref" value="${form.referrer}" />${
    token === undefined ? '' : html`\n  <input type="hidden" name="token" value="${token}" />`
  }`;
}

/** A password field, with its error tied to it. */
function passwordField(label: string, error: string | null): Html {
  const invalid = error === null ? '' : html` aria-invalid="true" aria-describedby="password-error"`;
  return html`<label for="password">${label}</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required autofocus${invalid} />
  ${error === null ? '' : html`<p class="error" id="password-error" role="alert">${error}</p>`}`;
}

/** A form that posts to `action`: its fields, one a line, then its button and the way back. */
function postForm(action: string, fields: readonly Html[], submit: string, back: Html): Html {
  return html`<form method="post" action="${action}">
${fields.map((field) => html`  ${field}\n`)}  <div class="actions"><button type="submit">${submit}</button>${back}</div>
</form>`;
}

export const views = {
  notFound(t: Translator): Page {
    return { title: t.text('notFoundTitle'), body: html`<p>${t.text('notFoundText')}</p>` };
  },

  expired(t: Translator): Page {
    return {
      title: t.text('expiredTitle'),
      body: html`<p>${t.text('expiredText')}</p>
      <p>${t.text('expiredNext')}</p>`,
    };
  },

  password(
    t: Translator,
    input: {
      form: CarriedForm;
      leads: LeadsTo;
      error: 'passwordWrong' | 'passwordFirst' | null;
    },
  ): Page {
    return {
      title: t.text('passwordTitle'),
      heading: t.text('passwordHeading'),
      posts: true,
      body: html`${leadsTo(t, input.leads)}
      <p>${t.text('passwordText')}</p>
      ${postForm(
        input.form.action,
        [
          hiddenFields(input.form),
          passwordField(t.text('passwordLabel'), input.error === null ? null : t.text(input.error)),
        ],
        t.text('continue'),
        wayBack(t, input.form.referrer, input.leads.domain),
      )}`,
    };
  },

  statsPassword(t: Translator, input: { action: string; domain: string; wrong: boolean }): Page {
    return {
      title: t.text('passwordTitle'),
      heading: t.text('statsPasswordHeading'),
      posts: true,
      body: html`<p>${t.text('statsPasswordText')}</p>
      ${postForm(
        input.action,
        [passwordField(t.text('statsPasswordLabel'), input.wrong ? t.text('passwordWrong') : null)],
        t.text('statsPasswordSubmit'),
        wayBack(t, '', input.domain),
      )}`,
    };
  },

  consent(t: Translator, input: { form: CarriedForm; token: string; leads: LeadsTo }): Page {
    return {
      title: t.text('consentTitle'),
      heading: t.text('consentHeading'),
      posts: true,
      body: html`${leadsTo(t, input.leads)}
      <p>${t.text('consentText')}</p>
      ${postForm(
        input.form.action,
        [hiddenFields(input.form, input.token)],
        t.text('consentContinue'),
        wayBack(t, input.form.referrer, input.leads.domain),
      )}`,
    };
  },

  /**
   * The page that loads a link's pixels, then forwards: the service's own script forwards once they have loaded;
   * without JavaScript, an immediate refresh does (a delayed one would be a timed change of page, which WCAG
   * 2.2.1 rules out).
   */
  pixels(t: Translator, input: { destination: string; pixels: Html; allow: Page['allow'] }): Page {
    const link = html`<a class="url" href="${input.destination}">${input.destination}</a>`;
    const scripts = input.allow?.['script-src'] ?? [];
    return {
      title: t.text('redirectingTitle'),
      heading: t.text('redirectingHeading'),
      head: html`<noscript><meta http-equiv="refresh" content="0; url=${input.destination}" /></noscript>`,
      allow: { ...input.allow, 'script-src': scripts.includes("'self'") ? scripts : ["'self'", ...scripts] },
      body: html`<p>${t.html('redirectingText', { destination: link })}</p>
      <p class="muted">${t.text('redirectingHelp')}</p>
      <div class="pixels" aria-hidden="true">${input.pixels}</div>
      <script src="${PIXELS_SCRIPT_PATH}" data-forward="${input.destination}"></script>`,
    };
  },

  preview(t: Translator, input: PreviewFacts): Page {
    const host = hostOf(input.destination);
    const destination = input.hidden
      ? t.text('previewHidden', { host: host ?? '' })
      : html`<a class="url" href="${input.destination}" rel="noopener noreferrer nofollow">${input.destination}</a>`;
    const row = (label: string, value: Html | string) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
    const onward = input.active
      ? html`<p><a class="button" href="/${input.alias}">${
          host === null ? t.text('continue') : t.text('continueTo', { host })
        }</a></p>`
      : '';
    return {
      title: t.text('previewTitle', { alias: input.alias }),
      heading: t.text('previewHeading'),
      body: html`<dl class="facts">
  ${row(t.text('previewShortLink'), html`<a class="url" href="/${input.alias}">${input.shortUrl}</a>`)}
  ${row(t.text('previewLinkTitle'), input.title ?? t.text('previewNoTitle'))}
  ${row(t.text('previewDestination'), destination)}
  ${row(t.text('previewStatus'), t.text(input.active ? 'statusActive' : 'statusExpired'))}
</dl>
      ${onward}
      <p class="muted">${t.text('previewNote')}</p>`,
    };
  },

  /**
   * What a social network's crawler gets of a link with a social preview: its Open Graph and Twitter card tags, in a
   * page that says where the link leads. People never see it: they are redirected.
   */
  socialPreview(t: Translator, input: { preview: SocialPreview; destination: string }): Page {
    const { title, description, imageUrl } = input.preview;
    const tag = (name: string, content: string | null) =>
      content === null
        ? ''
        : html`<meta ${name.startsWith('og:') ? 'property' : 'name'}="${name}" content="${content}" />
`;
    const link = html`<a class="url" href="${input.destination}">${input.destination}</a>`;
    return {
      title: title ?? t.text('redirectingTitle'),
      head: html`<meta property="og:type" content="website" />
${tag('og:title', title)}${tag('og:description', description)}${tag('og:image', imageUrl)}${tag(
        'twitter:card',
        imageUrl === null ? 'summary' : 'summary_large_image',
      )}${tag('twitter:title', title)}${tag('twitter:description', description)}${tag('twitter:image', imageUrl)}${tag(
        'description',
        description,
      )}`,
      body: html`${description === null ? '' : html`<p>${description}</p>`}
      <p>${t.html('redirectingText', { destination: link })}</p>`,
    };
  },

  /**
   * `GET /` of a domain without an index page: what this is. The service's own domain is where its users arrive
   * first, so it leads on to the dashboard and the API docs; a customer's domain shows its visitors neither.
   */
  root(t: Translator, input: { name: string; domain: string; own: boolean }): Page {
    const text = html`<p>${t.text('rootText', { domain: input.domain })}</p>`;
    if (!input.own) return { title: input.name, body: text };
    return {
      title: input.name,
      body: html`${text}
      <p>${t.text('rootManage')}</p>
      <ul class="root-links">
        <li><a href="/app">${t.text('rootDashboard')}</a></li>
        <li><a href="/docs">${t.text('rootDocs')}</a></li>
      </ul>`,
    };
  },

  privateStats(t: Translator, input: { domain: string }): Page {
    return {
      title: t.text('privateTitle'),
      body: html`<p>${t.text('privateText')}</p>
      <p>${t.text('privateNext')}</p>
      <p><a class="back" href="/">${t.text('homeLink', { domain: input.domain })}</a></p>`,
    };
  },

  tooManyAttempts(t: Translator, waitMs: number): Page {
    return {
      title: t.text('tooManyAttemptsTitle'),
      body: html`<p>${t.text('tooManyAttemptsText')}</p>
      <p>${t.text('tooManyAttemptsNext', { wait: t.duration(waitMs) })}</p>`,
    };
  },

  tooManyRequests(t: Translator, waitMs: number): Page {
    return {
      title: t.text('tooManyRequestsTitle'),
      body: html`<p>${t.text('tooManyRequestsText')}</p>
      <p>${t.text('tooManyRequestsNext', { wait: t.duration(waitMs) })}</p>`,
    };
  },

  queryTooLong(t: Translator): Page {
    return {
      title: t.text('queryTooLongTitle'),
      body: html`<p>${t.text('queryTooLongText')}</p>
      <p>${t.text('queryTooLongNext')}</p>`,
    };
  },

  /** A QR code that cannot be drawn as its address asks: the parameters to correct, by their names. */
  qrRefused(t: Translator, refused: { fields: string[]; minSize: number; maxSize: number }): Page {
    const fields = refused.fields.map(
      (field, index) => html`${index === 0 ? '' : ', '}<code>${field}</code>`,
    );
    return {
      title: t.text('qrRefusedTitle'),
      body: html`<p>${t.html('qrRefusedText', { fields: html`${fields}` })}</p>
      <p>${t.text('qrRefusedNext', { min: refused.minSize, max: refused.maxSize })}</p>`,
    };
  },
};

export type ViewName = keyof typeof views;
