import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';
import type { Browser, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { contrastRatio } from '../src/qr/contrast';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import {
  accessibilityProblems,
  describeInChromium,
  expectDashboardBuilt,
  launchChromium,
  serveOnLoopback,
  signInWithKey,
} from './support/browser';
import { createLink, type LinkData } from './support/visitors';

/*
 * The QR designer in a real browser against the service: colours, rounded modules and a logo uploaded from the
 * page, the preview following them, and the downloads decoded back to the short URL as a phone's camera would;
 * the API's contrast refusal on the foreground field; axe-core in light and dark, and no sideways scroll at 320 px.
 */

/** A PNG of `side` pixels: a red disc on a transparent ground. */
function discPng(side: number): Buffer {
  const png = new PNG({ width: side, height: side });
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const inside = (x + 0.5 - side / 2) ** 2 + (y + 0.5 - side / 2) ** 2 <= (side / 2) ** 2;
      png.data.set(inside ? [220, 30, 40, 255] : [0, 0, 0, 0], (y * side + x) * 4);
    }
  }
  return PNG.sync.write(png);
}

const LOGO = discPng(48);
const UPLOAD_LABEL = 'Upload a logo (PNG or SVG, at most 64 KB)';

/** The red, green and blue of the pixel in the middle of an image. */
function middleOf(png: PNG): number[] {
  const at = (Math.floor(png.height / 2) * png.width + Math.floor(png.width / 2)) * 4;
  return [...png.data.subarray(at, at + 3)];
}

/** A contrast as the designer writes it: cut, not rounded, to two decimals, as the API's refusal writes it. */
const shownContrast = (fg: string, bg: string) => (Math.floor(contrastRatio(fg, bg) * 100) / 100).toFixed(2);

describeInChromium('dashboard QR designer tests')(
  'the QR designer in the dashboard, in a real browser',
  () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let owner: TestAccount;
    let designed: LinkData;
    let withLogo: LinkData;

    beforeAll(async () => {
      expectDashboardBuilt();
      t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_MINUTE: '0' });
      base = await serveOnLoopback(t);
      browser = await launchChromium();
      owner = await createAccount(t, 'QR codes in the browser');
      designed = await createLink(t, owner, { url: 'https://example.com/designed' });
      withLogo = await createLink(t, owner, { url: 'https://example.com/with-logo' });
      const put = await t
        .http()
        .put(`/api/v1/links/${withLogo.id}/qr-logo`)
        .set('Authorization', owner.auth)
        .set('Content-Type', 'image/png')
        .send(LOGO);
      expect(put.status).toBe(200);
    });

    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    /** Signs in with the owner's key at this width and scheme; the page collects what its CSP refused. */
    async function open(options: {
      width: number;
      dark: boolean;
    }): Promise<{ page: Page; refused: string[] }> {
      const context = await browser.newContext({
        viewport: { width: options.width, height: 800 },
        colorScheme: options.dark ? 'dark' : 'light',
        locale: 'en-US',
        acceptDownloads: true,
      });
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) refused.push(message.text());
      });
      await signInWithKey(page, base, owner.apiKey);
      return { page, refused };
    }

    /** The designer of `link`, opened from its row with the `q` shortcut. */
    async function designer(page: Page, link: LinkData): Promise<Locator> {
      await page.locator(`tr[data-row-id="${link.id}"]`).focus();
      await page.keyboard.press('q');
      const dialog = page.getByRole('dialog', { name: `QR code of ${link.short_url}` });
      await dialog.getByRole('img', { name: `QR code that opens ${link.short_url}` }).waitFor();
      return dialog;
    }

    /** Waits until the preview shows the design as it stands: no change waiting, no drawing on its way. */
    async function settled(dialog: Locator): Promise<void> {
      await dialog.locator('.qr-preview[aria-busy="false"]').waitFor();
    }

    /** Downloads the code in `format` with the dialog's button: the file's bytes. */
    async function download(page: Page, dialog: Locator, format: 'SVG' | 'PNG'): Promise<Buffer> {
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: `Download ${format}` }).click(),
      ]);
      expect(file.suggestedFilename()).toBe(`${designed.alias}.${format.toLowerCase()}`);
      return readFile(await file.path());
    }

    it('designs a code with colours, rounded modules and an uploaded logo, and downloads it to scan', async () => {
      const { page, refused } = await open({ width: 1280, dark: false });
      const dialog = await designer(page, designed);

      await dialog.getByLabel('Foreground colour', { exact: true }).fill('#1a2b3c');
      await dialog.getByLabel('Background colour', { exact: true }).fill('#fafafa');
      await dialog.getByText(`Contrast ${shownContrast('1a2b3c', 'fafafa')} to 1: the code scans.`).waitFor();
      await dialog.getByRole('radio', { name: 'Rounded' }).check();
      await dialog
        .getByLabel(UPLOAD_LABEL)
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
      await page.getByText('Logo uploaded').waitFor();

      // Uploading draws the logo, at H: L and M are not offered with one.
      expect(await dialog.getByRole('checkbox', { name: 'Draw the logo in the middle' }).isChecked()).toBe(
        true,
      );
      const ecc = dialog.getByLabel('Error correction');
      expect(await ecc.inputValue()).toBe('H');
      expect(await ecc.locator('option').allTextContents()).toEqual([
        'Q: 25% may be lost',
        'H: 30% may be lost',
      ]);
      const preview = dialog.locator('svg.qr');
      await preview.locator(`image[href="data:image/png;base64,${LOGO.toString('base64')}"]`).waitFor();
      await settled(dialog);
      expect(await preview.locator('path[fill="#1a2b3c"]').count()).toBe(1);
      // The logo is drawn, not refused by the page's Content-Security-Policy: the preview's middle is the logo's red.
      expect(middleOf(PNG.sync.read(await preview.screenshot()))).toEqual([220, 30, 40]);
      expect(refused).toEqual([]);

      await dialog.getByLabel('Download size (pixels)').selectOption('512');
      const png = PNG.sync.read(await download(page, dialog, 'PNG'));
      expect([png.width, png.height]).toEqual([512, 512]);
      expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(designed.short_url);
      expect(middleOf(png)).toEqual([220, 30, 40]);

      const svg = (await download(page, dialog, 'SVG')).toString('utf8');
      expect(svg).toContain('width="512" height="512"');
      expect(svg).toContain('<path fill="#1a2b3c" d="M');
      expect(svg).toContain(`xlink:href="data:image/png;base64,${LOGO.toString('base64')}"/>`);
      await page.context().close();
    });

    it('shows the API’s refusal of a pair that would not scan on the foreground field', async () => {
      const { page } = await open({ width: 1280, dark: false });
      const dialog = await designer(page, designed);
      const foreground = dialog.getByLabel('Foreground colour', { exact: true });
      await foreground.fill('#777777');
      const ratio = shownContrast('777777', 'ffffff');
      const refusal =
        `The fg field must contrast with the background by at least 4.5 to 1 for the code to scan; these colours ` +
        `are ${ratio} to 1.`;
      await dialog.getByText(refusal).waitFor();
      // On the field: marked invalid, the message among what describes it.
      expect(await foreground.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await foreground.getAttribute('aria-describedby'))?.split(' ') ?? [];
      const description = await Promise.all(
        describedBy.map((id) => dialog.locator(`[id="${id}"]`).textContent()),
      );
      expect(description.join(' ')).toContain(refusal);
      await dialog
        .getByText(`Contrast ${ratio} to 1: at least 4.5 to 1 is needed for the code to scan.`)
        .waitFor();
      expect(await dialog.locator('svg.qr').count()).toBe(0);
      await page.context().close();
    });

    it.each([
      { width: 1280, dark: false },
      { width: 320, dark: true },
    ])('passes axe-core at $width px (dark: $dark), with no sideways scroll', async ({ width, dark }) => {
      const { page } = await open({ width, dark });
      const dialog = await designer(page, withLogo);
      await dialog.getByRole('checkbox', { name: 'Draw the logo in the middle' }).check();
      await dialog.locator('svg.qr image').waitFor();
      await settled(dialog);
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
      expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
      await page.context().close();
    });
  },
);
