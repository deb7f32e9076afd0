import type { MetricsService } from '../metrics/metrics.service';
import { Pages } from './pages/pages';
import { OutcomeWriter } from './outcome-writer';
import type { VisitOutcome } from './visit';

const form = { action: '/abc/password', query: 'a=1', referrer: '' };
const leads = { domain: 'sho.rt', host: 'example.com' };

/** Writes an outcome for an English GET and returns what reached the response, and the metric counted. */
function written(outcome: VisitOutcome) {
  const counted: string[] = [];
  const metrics = { redirect: (metric: string) => counted.push(metric) } as unknown as MetricsService;
  const answer = { status: 0, headers: {} as Record<string, unknown>, body: '' };
  const response = {
    writeHead: (status: number, headers: Record<string, unknown>) =>
      Object.assign(answer, { status, headers }),
    end: (body?: string) => (answer.body = body ?? ''),
  };
  const request = { method: 'GET', headers: { 'accept-language': 'en' } };
  new OutcomeWriter(new Pages(), metrics).write(request as never, response as never, outcome);
  return { ...answer, counted };
}

describe('OutcomeWriter', () => {
  it.each<[string, VisitOutcome, number, string[]]>([
    [
      'a redirect',
      { kind: 'redirect', status: 301, location: 'https://e.x/', metric: 'redirected' },
      301,
      ['redirected'],
    ],
    ['the expired page', { kind: 'expired' }, 410, ['expired']],
    ['the not-found page', { kind: 'not-found', metric: 'not_found' }, 404, ['not_found']],
    ['the too-large page', { kind: 'too-large' }, 414, []],
    [
      'the password form, first shown',
      { kind: 'password-form', form, leads, error: null },
      200,
      ['password'],
    ],
    [
      'the password form after a wrong one',
      { kind: 'password-form', form, leads, error: 'passwordWrong' },
      403,
      [],
    ],
    [
      'the password form before consent',
      { kind: 'password-form', form, leads, error: 'passwordFirst' },
      403,
      [],
    ],
    ['the consent page', { kind: 'consent', form, token: 't', leads }, 200, ['consent']],
    ['the pixels page', { kind: 'pixels', pixels: [], destination: 'https://e.x/' }, 200, ['redirected']],
    ['the root page', { kind: 'root', name: 'Short', domain: 'sho.rt', own: true }, 200, []],
    ['too many attempts', { kind: 'too-many-attempts', waitMs: 1500 }, 429, []],
  ])('writes %s with its status and counts its metric', (_name, outcome, status, counted) => {
    const answer = written(outcome);
    expect(answer.status).toBe(status);
    expect(answer.counted).toEqual(counted);
    if (outcome.kind !== 'redirect') expect(answer.headers['Content-Type']).toBe('text/html; charset=utf-8');
  });

  it('says how long to wait in Retry-After and on the page, in whole seconds', () => {
    const answer = written({ kind: 'too-many-attempts', waitMs: 1500 });
    expect(answer.headers['Retry-After']).toBe('2');
    expect(answer.body).toContain('2 seconds');
  });

  it('lets a page post only when it is a form, and sends a pixels page the vendors it loads', () => {
    expect(
      written({ kind: 'consent', form, token: 't', leads }).headers['Content-Security-Policy'],
    ).toContain('allow-forms');
    const pixels = written({
      kind: 'pixels',
      pixels: [{ type: 'facebook', value: '1' } as never],
      destination: 'https://e.x/',
    });
    expect(pixels.headers['Content-Security-Policy']).toContain('https://connect.facebook.net');
    expect(pixels.body).toContain('data-forward="https://e.x/"');
  });
});
