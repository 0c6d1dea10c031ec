import type { ResourceContent, ResourceReadResult } from '../../../../shared/model/features.js';
import { formatBytes, plural } from '../../common/text.js';

/** A MIME type safe to put in an image data: URL. */
const imageType = (mimeType: string | undefined): string | undefined =>
  mimeType !== undefined && /^image\/[a-z0-9.+-]+$/i.test(mimeType) ? mimeType.toLowerCase() : undefined;

/** What a resources/read returned: text shown as text, binary as size and type (images previewed). */
export function ResourceContents({ result }: { result: ResourceReadResult }) {
  return (
    <section aria-label="Contents" className="result">
      <header className="result__header">
        <span className="result__title">Contents</span>
        <span className="result__meta">
          {plural(result.contents.length, 'item')} · read at {new Date(result.readAt).toLocaleTimeString()}
        </span>
      </header>
      <div className="result__blocks">
        {result.contents.length === 0 && <p className="muted">The server returned no contents.</p>}
        {result.contents.map((content, index) => (
          // Items have no identity of their own; the list is replaced whole.
          <ContentItem key={index} content={content} showUri={content.uri !== result.uri} />
        ))}
      </div>
    </section>
  );
}

function ContentItem({ content, showUri }: { content: ResourceContent; showUri: boolean }) {
  const meta = (
    <div className="resource-card__top">
      <span className="tag">{content.kind === 'text' ? 'Text' : 'Binary'}</span>
      {showUri && <code className="resource-card__uri">{content.uri}</code>}
      {content.mimeType !== undefined && <span className="resource-card__mime">{content.mimeType}</span>}
    </div>
  );
  if (content.kind === 'text') {
    return (
      <div className="resource-card">
        {meta}
        <pre className="block-text">{content.text}</pre>
        {content.truncated === true && (
          <p className="muted">
            Showing the first {content.text.length.toLocaleString()} of{' '}
            {(content.totalChars ?? 0).toLocaleString()} characters.
          </p>
        )}
      </div>
    );
  }
  const image = imageType(content.mimeType);
  return (
    <div className="resource-card">
      {meta}
      {image !== undefined && content.previewData !== undefined ? (
        <figure className="block-media">
          <img src={`data:${image};base64,${content.previewData}`} alt={`Preview of ${content.uri}`} />
          <figcaption>
            {image} · {formatBytes(content.bytes)}
          </figcaption>
        </figure>
      ) : (
        <p className="resource-card__description">
          Binary content, {formatBytes(content.bytes)}
          {content.mimeType !== undefined ? ` of type ${content.mimeType}` : ''}.
        </p>
      )}
    </div>
  );
}

export { HostErrorLine } from '../../common/host-error-line.js';
