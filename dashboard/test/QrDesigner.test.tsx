import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../src/download';
import { QrDialog } from '../src/features/links/QrDialog';
import { contrastOf, parseQrSvg } from '../src/features/links/qrDesign';
import { json, type Recorded } from './api';
import { link, session } from './fixtures';
import { renderSignedIn } from './render';

vi.mock('../src/download', () => ({ saveBlob: vi.fn() }));

const PNG_DATA = 'data:image/png;base64,iVBORw0KGgo=';

function svg(logo = '') {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="256" height="256" ' +
    'viewBox="0 0 29 29"><path fill="#ffffff" d="M0 0h29v29H0z"/><path fill="#1a2b3c" d="M4 4h7v1H4z"/>' +
    `${logo}</svg>\n`
  );
}

function svgAnswer(logo = ''): Response {
  return new Response(svg(logo), {
    status: 200,
    headers: { 'content-type': 'image/svg+xml; charset=utf-8' },
  });
}

const LOGO = `<image x="11" y="11" width="7" height="7" preserveAspectRatio="xMidYMid meet" xlink:href="${PNG_DATA}"/>`;

const refusal = (status: number, message: unknown) => json(status, { message, status });

/** The QR designer of the fixture link, the API answering its code with `qr` (an SVG by default). */
async function open(
  routes: Record<string, (request: Recorded) => Response> = {},
  options: { session?: ReturnType<typeof session> } = {},
) {
  const view = await renderSignedIn(<QrDialog link={link()} onClose={vi.fn()} />, {
    ...options,
    routes: { 'GET /api/v1/links/5/qr': () => svgAnswer(), ...routes },
  });
  await screen.findByRole('img', { name: 'QR code that opens https://sho.rt/spring' });
  return view;
}

/** The query of the last request for the code. */
function lastQuery(requests: Recorded[]): Record<string, string> {
  const last = requests.filter((request) => request.url.pathname === '/api/v1/links/5/qr').at(-1);
  return Object.fromEntries(last?.url.searchParams ?? []);
}

describe('the QR designer', () => {
  it('reads the logo of the API’s SVG only as an inline PNG or SVG', () => {
    expect(parseQrSvg(svg(LOGO))?.logo).toEqual({ x: 11, y: 11, width: 7, height: 7, href: PNG_DATA });
    for (const href of [
      'https://tracker.example/p.png',
      'javascript:alert(1)',
      'data:text/html;base64,PGI+',
    ]) {
      expect(parseQrSvg(svg(`<image x="1" y="1" width="2" height="2" href="${href}"/>`))?.logo).toBeNull();
    }
  });

  it('measures the contrast as the API does, cut to two decimals', () => {
    expect(contrastOf('#777777', '#ffffff')).toBe(4.47);
    expect(contrastOf('000000', '#FFFFFF')).toBe(21);
    expect(contrastOf('#333333', '#000000')).toBe(1.66);
    expect(contrastOf('#12345', '#ffffff')).toBeNull();
  });

  it('draws the design once typing pauses, shows the contrast, and the API’s 422 on the field it names', async () => {
    const user = userEvent.setup({ delay: null });
    const { api } = await open({
      'GET /api/v1/links/5/qr': (request) =>
        request.url.searchParams.get('fg') === '#777777'
          ? refusal(422, {
              fg: [
                'The fg field must contrast with the background by at least 4.5 to 1 for the code to scan; these colours are 4.47 to 1.',
              ],
            })
          : svgAnswer(),
    });
    expect(lastQuery(api.requests)).toEqual({
      fg: '#000000',
      bg: '#ffffff',
      margin: '4',
      ecc: 'M',
      style: 'square',
      logo: '0',
      format: 'svg',
    });
    expect(screen.getByText('Contrast 21.00 to 1: the code scans.')).toBeInTheDocument();

    const foreground = screen.getByLabelText('Foreground colour');
    await user.clear(foreground);
    await user.type(foreground, '#777777');
    await user.click(screen.getByRole('radio', { name: 'Rounded' }));
    expect(
      screen.getByText('Contrast 4.47 to 1: at least 4.5 to 1 is needed for the code to scan.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(foreground).toHaveAttribute('aria-invalid', 'true'));
    expect(foreground).toHaveAccessibleDescription(/these colours are 4\.47 to 1\./);
    expect(
      screen.getByText('The code cannot be drawn as designed: see the marked fields.'),
    ).toBeInTheDocument();
    // One request for the pause, not one a key.
    const drawn = api.requests.filter((request) => request.url.pathname === '/api/v1/links/5/qr');
    expect(drawn).toHaveLength(2);
    expect(lastQuery(api.requests)).toMatchObject({ fg: '#777777', style: 'rounded' });
  });

  it('offers Q and H only with a logo, at H, and downloads the design at the size chosen', async () => {
    const user = userEvent.setup({ delay: null });
    const { api } = await open({
      'GET /api/v1/links/5/qr': (request) =>
        request.url.searchParams.get('format') === 'png'
          ? new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'content-type': 'image/png' } })
          : svgAnswer(request.url.searchParams.get('logo') === '1' ? LOGO : ''),
    });
    const ecc = screen.getByLabelText('Error correction');
    expect(
      within(ecc)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['L: 7% may be lost', 'M: 15% may be lost', 'Q: 25% may be lost', 'H: 30% may be lost']);
    await user.click(screen.getByRole('checkbox', { name: 'Draw the logo in the middle' }));
    expect(
      within(ecc)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['Q', 'H']);
    expect(ecc).toHaveValue('H');
    await waitFor(() => expect(document.querySelector('svg.qr image')).toHaveAttribute('href', PNG_DATA));

    await user.selectOptions(screen.getByLabelText('Download size (pixels)'), '512');
    await user.click(screen.getByRole('button', { name: 'Download PNG' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.anything(), 'spring.png'));
    expect(lastQuery(api.requests)).toMatchObject({ format: 'png', size: '512', logo: '1', ecc: 'H' });
  });

  it('refuses a file the API would refuse before sending it, and shows the API’s refusals', async () => {
    const user = userEvent.setup({ delay: null, applyAccept: false });
    let answer = json(200, { data: {}, status: 200 });
    const { api } = await open({ 'PUT /api/v1/links/5/qr-logo': () => answer });
    const file = screen.getByLabelText('Upload a logo (PNG or SVG, at most 64 KB)');

    await user.upload(file, new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }));
    expect(screen.getByText('The logo must be a PNG or an SVG file.')).toBeInTheDocument();
    await user.upload(file, new File([new Uint8Array(64 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(screen.getByText('The logo must be 64 KB at most.')).toBeInTheDocument();
    expect(api.to('PUT', '/api/v1/links/5/qr-logo')).toHaveLength(0);

    answer = refusal(422, { logo: ['The logo must not be larger than 1024 by 1024 pixels.'] });
    await user.upload(file, new File(['png'], 'wide.png', { type: 'image/png' }));
    expect(
      await screen.findByText('The logo must not be larger than 1024 by 1024 pixels.'),
    ).toBeInTheDocument();
    answer = refusal(413, 'Payload too large.');
    await user.upload(file, new File(['png'], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo must be 64 KB at most.')).toBeInTheDocument();
    answer = refusal(415, 'Unsupported media type.');
    await user.upload(file, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(
      await screen.findByText('The service could not read the request. Unsupported media type.'),
    ).toBeInTheDocument();

    answer = json(200, { data: {}, status: 200 });
    await user.upload(file, new File(['\x89PNG'], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('Logo uploaded')).toBeInTheDocument();
    const sent = api.to('PUT', '/api/v1/links/5/qr-logo').at(-1);
    expect([sent?.headers.get('content-type'), sent?.body]).toEqual(['image/png', '\x89PNG']);
    // An upload draws the logo from then on.
    expect(screen.getByRole('checkbox', { name: 'Draw the logo in the middle' })).toBeChecked();
  });

  it('keeps a logo with the workspace when the session reaches every space, and removes it', async () => {
    const user = userEvent.setup({ delay: null });
    const { api } = await open({
      'PUT /api/v1/account/qr-logo': () => json(200, { data: {}, status: 200 }),
      'DELETE /api/v1/account/qr-logo': () =>
        json(200, { id: 1, object: 'qr_logo', deleted: true, status: 200 }),
    });
    await user.click(screen.getByRole('radio', { name: /^The workspace/ }));
    await user.upload(
      screen.getByLabelText('Upload a logo (PNG or SVG, at most 64 KB)'),
      new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', { type: 'image/svg+xml' }),
    );
    await waitFor(() => expect(api.to('PUT', '/api/v1/account/qr-logo')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Remove the workspace’s logo' }));
    await waitFor(() => expect(api.to('DELETE', '/api/v1/account/qr-logo')).toHaveLength(1));
    expect(await screen.findByText('Logo removed')).toBeInTheDocument();
  });

  it('leaves the workspace’s logo to sessions that reach every space', async () => {
    await open({}, { session: { ...session(), space_ids: [3] } });
    expect(screen.getByRole('radio', { name: /^The workspace/ })).toBeDisabled();
    expect(
      screen.getByText('A session restricted to spaces cannot change the workspace’s logo.'),
    ).toBeInTheDocument();
  });

  it('lets a reader draw the logo but not change it', async () => {
    await open({}, { session: session(['links.read']) });
    expect(screen.getByRole('checkbox', { name: 'Draw the logo in the middle' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Upload a logo (PNG or SVG, at most 64 KB)')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  });
});
