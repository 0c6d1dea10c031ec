import { memo } from 'react';
import type { ComponentProps } from 'react';
import ReactMarkdown from 'react-markdown';
import type { Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { safeLinkUrl } from '../../lib/safe-url.js';

/**
 * Model and tool text as Markdown: GFM (tables, task lists, strikethrough)
 * and highlighted code. Nothing in the text is ever HTML: react-markdown
 * without rehype-raw turns raw HTML into visible text, links keep only
 * http(s)/mailto targets, and images are never fetched (a remote image in
 * model output is a classic way to leak data through its URL), so they are
 * shown as their alt text and address.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        urlTransform={safeLinkUrl}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

const remarkPlugins = [remarkGfm];
// detect: false — guessing languages on every streamed frame is slow and
// often wrong; fenced blocks with a language are highlighted.
const rehypePlugins: ComponentProps<typeof ReactMarkdown>['rehypePlugins'] = [
  [rehypeHighlight, { detect: false }],
];

const components: Components = {
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
};
