import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../../../../renderer/src/features/markdown/markdown.js';
import { XSS_PAYLOADS } from '../../../../../helpers/renderer/xss-corpus.js';

interface Tag {
  name: string;
  attributes: { name: string; value: string }[];
}

const decode = (value: string): string =>
  value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The start tags of React's serialised output. React escapes "<" in text and
 * '"' in attribute values, so a tag can only start where React wrote one.
 */
function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][^\s/>]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attributes = [...(match[2] ?? '').matchAll(/([^\s=/>]+)(?:="([^"]*)")?/g)].map((a) => ({
      name: (a[1] ?? '').toLowerCase(),
      value: decode(a[2] ?? ''),
    }));
    tags.push({ name: (match[1] ?? '').toLowerCase(), attributes });
  }
  return tags;
}

const FORBIDDEN_TAGS = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'style',
  'img',
  'form',
  'input',
  'button',
  'base',
  'meta',
  'link',
  'body',
  'details',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc']);

/** Everything that would let a payload run or fetch something; [] when the output is inert. */
function dangers(html: string): string[] {
  const found: string[] = [];
  for (const tag of tagsOf(html)) {
    if (FORBIDDEN_TAGS.has(tag.name)) found.push(`<${tag.name}>`);
    for (const { name, value } of tag.attributes) {
      if (name.startsWith('on')) found.push(`${tag.name}[${name}]`);
      if (name === 'style') found.push(`${tag.name}[style]`);
      if (URL_ATTRIBUTES.has(name) && !/^(https?:\/\/|mailto:)/i.test(value)) {
        found.push(`${tag.name}[${name}=${value}]`);
      }
    }
  }
  return found;
}

const render = (text: string): string => renderToStaticMarkup(createElement(Markdown, { text }));

describe('Markdown rendering of hostile text', () => {
  it('the checker itself finds scripts, handlers and script URLs in raw HTML', () => {
    expect(dangers('<p><img src="x" onerror="alert(1)"></p>')).toEqual([
      '<img>',
      'img[src=x]',
      'img[onerror]',
    ]);
    expect(dangers('<a href="&#106;avascript:alert(1)">x</a>')).toEqual(['a[href=javascript:alert(1)]']);
    expect(dangers('<script>alert(1)</script>')).toEqual(['<script>']);
  });

  it.each(XSS_PAYLOADS.map((payload) => [payload]))('%j renders inert', (payload) => {
    const html = render(payload);
    expect(dangers(html)).toEqual([]);
    // Anchors that survive point only at http(s)/mailto, and open outside the app.
    for (const tag of tagsOf(html).filter((t) => t.name === 'a')) {
      expect(tag.attributes).toContainEqual({ name: 'rel', value: 'noopener noreferrer nofollow' });
    }
  });

  it('has at least 30 payloads', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  it('shows raw HTML as text, so the person sees what was sent', () => {
    const html = render('before <script>alert(1)</script> after');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
  });

  it('keeps safe links and draws images as text without fetching them', () => {
    const html = render('[docs](https://example.com/a?b=1) ![chart](https://evil.example/x.png)');
    expect(html).toContain('href="https://example.com/a?b=1"');
    expect(html).toContain('[image: chart]');
    expect(html).not.toContain('<img');
  });

  it('renders GFM tables and highlights fenced code', () => {
    const html = render('| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```');
    expect(html).toContain('<table>');
    expect(html).toContain('<td>2</td>');
    expect(html).toMatch(/<code class="hljs language-js">.*hljs-keyword/s);
  });
});
