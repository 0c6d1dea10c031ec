import { memo, useMemo } from 'react';
import type { ReactElement } from 'react';
import renderMarkdownTree from 'react-markdown';
import type { Components, Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { safeLinkUrl } from '../../common/safe-url.js';
import { streamChunks } from '../chat/stream-chunks.js';

/**
 * Model text as Markdown: GFM (tables, task lists, strikethrough) and
 * highlighted code. Nothing in the text is ever HTML: react-markdown without
 * rehype-raw turns raw HTML into visible text, links keep only http(s)/mailto
 * targets, and images are never fetched (a remote image in model output is a
 * classic way to leak data through its URL), so they show as alt text.
 *
 * The text is rendered paragraph by paragraph (blank lines outside code
 * fences), and each paragraph's rendering is cached by its text. While an
 * answer streams only its last paragraph is new, so a frame parses a few
 * hundred characters however long the answer is; when the answer is
 * committed, every paragraph is already in the cache. (The price: a
 * reference-style link whose definition sits in another paragraph is shown
 * as text.)
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const chunks = useMemo(() => streamChunks(text), [text]);
  return (
    <div className="markdown">
      {chunks.map((chunk, index) => (
        // Index keys: paragraphs before the last never change while streaming.
        <div key={index} className="markdown__chunk">
          {renderChunk(chunk)}
        </div>
      ))}
    </div>
  );
});

const options: Omit<Options, 'children'> = {
  remarkPlugins: [remarkGfm],
  // detect: false — guessing languages is slow and often wrong; fenced blocks
  // that name their language are highlighted.
  rehypePlugins: [[rehypeHighlight, { detect: false }]],
  urlTransform: safeLinkUrl,
  components: {
    a({ href, children }) {
      if (href === undefined || href === '') return <span className="markdown__dead-link">{children}</span>;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow" title={href}>
          {children}
        </a>
      );
    },
    img({ src, alt }) {
      const address = typeof src === 'string' ? src : '';
      return (
        <span className="markdown__image" title={address === '' ? undefined : address}>
          [image{alt ? `: ${alt}` : ''}]
        </span>
      );
    },
  } satisfies Components,
};

const CACHE_LIMIT = 2000;
const cache = new Map<string, ReactElement>();

/** The rendered elements of one paragraph; React elements are immutable, so they can be reused. */
function renderChunk(text: string): ReactElement {
  const hit = cache.get(text);
  if (hit) {
    // Most recently used last, so the oldest entry is the first one evicted.
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  // react-markdown's Markdown is a plain synchronous function of its options (no hooks).
  const element = renderMarkdownTree({ ...options, children: text });
  cache.set(text, element);
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return element;
}
