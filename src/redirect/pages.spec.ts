import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';
import { escapeHtml, fill, Pages } from './pages';

describe('escapeHtml', () => {
  it('escapes the characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
  });

  it('escapes an ampersand once, and leaves other text alone', () => {
    expect(escapeHtml('&amp; café {{x}}')).toBe('&amp;amp; café {{x}}');
  });
});

describe('fill', () => {
  it('escapes {{name}} and inserts {{{name}}} as given', () => {
    expect(fill('<p>{{text}}</p>{{{markup}}}', { text: '<b>' }, { markup: '<i>ok</i>' })).toBe(
      '<p>&lt;b&gt;</p><i>ok</i>',
    );
  });

  it('reads a value with placeholders as text, never as a placeholder', () => {
    const values = { a: '{{{body}}} {{b}} <script>alert(1)</script>', b: 'B' };
    expect(fill('{{a}}|{{b}}', values, { body: '<p>raw</p>' })).toBe(
      '{{{body}}} {{b}} &lt;script&gt;alert(1)&lt;/script&gt;|B',
    );
  });

  it('does not expand placeholders inside raw markup either', () => {
    expect(fill('{{{body}}}', { secret: 'S' }, { body: '{{secret}}' })).toBe('{{secret}}');
  });

  it('fills missing and null values with nothing, and numbers as text', () => {
    expect(fill('[{{a}}][{{b}}][{{c}}][{{{d}}}]', { b: null, c: 0 })).toBe('[][][0][]');
  });
});

describe('Pages', () => {
  const pages = new Pages();
  const style = readFileSync(join(__dirname, 'templates', 'style.css'), 'utf8').trim();
  const styleHash = createHash('sha256').update(style).digest('base64');

  function send(...args: Parameters<Pages['send']> extends [unknown, ...infer Rest] ? Rest : never) {
    const sent: { status?: number; headers?: Record<string, string>; body?: string } = {};
    const response = {
      status(code: number) {
        sent.status = code;
        return this;
      },
      set(headers: Record<string, string>) {
        sent.headers = headers;
        return this;
      },
      send(body: string) {
        sent.body = body;
        return this;
      },
    } as unknown as Response;
    pages.send(response, ...args);
    return sent;
  }

  it('renders a page in the layout: language, title, heading, the one stylesheet', () => {
    const html = pages.render('not-found', {}, { title: 'Link <not> found' });
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<title>Link &lt;not&gt; found</title>');
    expect(html).toContain('<h1>Link &lt;not&gt; found</h1>');
    expect(html).toContain(`<style>${style}</style>`);
    expect(html).toContain('<p>There is no link at this address.');
  });

  it('escapes the values of a page and keeps a value with {{{body}}} as text', () => {
    const html = pages.render(
      'preview',
      {
        shortUrl: '{{{body}}}',
        linkTitle: '<script>alert(1)</script>',
        destination: 'https://x/?a="b"',
        status: 'Active',
      },
      { title: 'Preview', heading: 'Heading {{title}}' },
    );
    expect(html).toContain('<dd>{{{body}}}</dd>');
    expect(html).toContain('<dd>&lt;script&gt;alert(1)&lt;/script&gt;</dd>');
    expect(html).toContain('<dd class="url">https://x/?a=&quot;b&quot;</dd>');
    expect(html).toContain('<h1>Heading {{title}}</h1>');
    expect(html).not.toContain('<script');
  });

  it('sends a page with a strict policy, never cached, not indexed', () => {
    const sent = send(404, 'not-found', {}, { title: 'Link not found' });
    expect(sent.status).toBe(404);
    expect(sent.headers).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': [
        "default-src 'none'",
        `style-src 'sha256-${styleHash}'`,
        "img-src 'self'",
        "script-src 'none'",
        "frame-src 'none'",
        "connect-src 'none'",
        "form-action 'self' http: https:",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    expect(sent.body).toContain('<title>Link not found</title>');
  });

  it('adds the sources a page asks for, replacing none', () => {
    const sent = send(
      200,
      'pixels',
      { destination: 'https://example.com/' },
      {
        title: 'Redirecting',
        allow: { 'img-src': ['https://img.example'], 'script-src': ["'self'", 'https://js.example'] },
      },
      { pixels: '' },
    );
    const policy = sent.headers!['Content-Security-Policy'];
    expect(policy).toContain("img-src 'self' https://img.example;");
    expect(policy).toContain("script-src 'self' https://js.example;");
    expect(policy).toContain("frame-src 'none';");
  });
});
