import type { ContentBlock } from '../../../../shared/model/server.js';
import { base64Size, formatBytes } from '../../lib/text.js';

/** A MIME type safe to put in a data: URL of the given kind (no parameters, no quotes). */
const mediaType = (mimeType: string, kind: 'image' | 'audio'): string | undefined =>
  new RegExp(`^${kind}/[a-z0-9.+-]+$`, 'i').test(mimeType) ? mimeType.toLowerCase() : undefined;

/**
 * One content block, drawn as plain text and media elements only: nothing a
 * server sends is ever interpreted as HTML.
 */
export function ContentBlockView({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case 'text':
      return <pre className="block-text">{block.text}</pre>;
    case 'image': {
      const mime = mediaType(block.mimeType, 'image');
      if (!mime) return <Unsupported label={`Image of unsupported type ${block.mimeType}`} />;
      return (
        <figure className="block-media">
          <img src={`data:${mime};base64,${block.data}`} alt={`Image returned by the tool (${mime})`} />
          <figcaption>
            {mime} · {base64Size(block.data)}
          </figcaption>
        </figure>
      );
    }
    case 'audio': {
      const mime = mediaType(block.mimeType, 'audio');
      if (!mime) return <Unsupported label={`Audio of unsupported type ${block.mimeType}`} />;
      return (
        <figure className="block-media">
          <audio controls src={`data:${mime};base64,${block.data}`} aria-label="Audio returned by the tool" />
          <figcaption>
            {mime} · {base64Size(block.data)}
          </figcaption>
        </figure>
      );
    }
    case 'resource_link':
      return (
        <div className="resource-card">
          <div className="resource-card__top">
            <span className="tag">Link</span>
            <span className="resource-card__name">{block.name ?? block.uri}</span>
            {block.mimeType !== undefined && <span className="resource-card__mime">{block.mimeType}</span>}
          </div>
          <code className="resource-card__uri">{block.uri}</code>
          {block.description !== undefined && (
            <p className="resource-card__description">{block.description}</p>
          )}
        </div>
      );
    case 'resource':
      return (
        <div className="resource-card">
          <div className="resource-card__top">
            <span className="tag">Resource</span>
            <code className="resource-card__uri">{block.uri}</code>
            {block.mimeType !== undefined && <span className="resource-card__mime">{block.mimeType}</span>}
          </div>
          {block.text !== undefined ? (
            <pre className="block-text">{block.text}</pre>
          ) : (
            <p className="resource-card__description">
              Binary content
              {block.blobBytes !== undefined ? `, ${formatBytes(block.blobBytes)}` : ''} (kept in the host).
            </p>
          )}
        </div>
      );
    case 'unknown':
      return (
        <div className="resource-card">
          <div className="resource-card__top">
            <span className="tag">Unknown</span>
            <span className="resource-card__description">A kind of content this version cannot show</span>
          </div>
          <pre className="code-block">{block.json}</pre>
        </div>
      );
  }
}

function Unsupported({ label }: { label: string }) {
  return <p className="muted">{label}</p>;
}
