import type { ReactNode } from 'react';
import type { ContentBlock } from '../../../../shared/model/server.js';
import { base64Size, formatBytes } from '../../common/text.js';

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
        <BlockCard
          tag="Link"
          title={<span className="resource-card__name">{block.name ?? block.uri}</span>}
          mimeType={block.mimeType}
        >
          <code className="resource-card__uri">{block.uri}</code>
          {block.description !== undefined && (
            <p className="resource-card__description">{block.description}</p>
          )}
        </BlockCard>
      );
    case 'resource':
      return (
        <BlockCard
          tag="Resource"
          title={<code className="resource-card__uri">{block.uri}</code>}
          mimeType={block.mimeType}
        >
          {block.text !== undefined ? (
            <pre className="block-text">{block.text}</pre>
          ) : (
            <p className="resource-card__description">
              Binary content
              {block.blobBytes !== undefined ? `, ${formatBytes(block.blobBytes)}` : ''} (kept in the host).
            </p>
          )}
        </BlockCard>
      );
    case 'unknown':
      return (
        <BlockCard
          tag="Unknown"
          title={
            <span className="resource-card__description">A kind of content this version cannot show</span>
          }
        >
          <pre className="code-block">{block.json}</pre>
        </BlockCard>
      );
  }
}

/** A card for a non-media block: a tag, a title, the MIME type if known, then the body. */
function BlockCard(props: {
  tag: string;
  title: ReactNode;
  mimeType?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="resource-card">
      <div className="resource-card__top">
        <span className="tag">{props.tag}</span>
        {props.title}
        {props.mimeType !== undefined && <span className="resource-card__mime">{props.mimeType}</span>}
      </div>
      {props.children}
    </div>
  );
}

function Unsupported({ label }: { label: string }) {
  return <p className="muted">{label}</p>;
}
