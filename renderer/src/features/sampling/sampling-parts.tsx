import type { SamplingPart } from '../../../../shared/model/sampling-consent.js';
import { formatBytes } from '../../common/text.js';
import { ServerText } from '../../common/server-text.js';

/**
 * One non-text part of a sampling message or completion, read-only: media
 * by type and size, tool uses and results as text.
 */
export function SamplingPartView({ part }: { part: Exclude<SamplingPart, { type: 'text' }> }) {
  switch (part.type) {
    case 'image':
    case 'audio':
      return (
        <p className="sampling-part sampling-part--media">
          {part.type === 'image' ? 'Image' : 'Audio'} ({part.mimeType}, {formatBytes(part.bytes)})
        </p>
      );
    case 'tool_use':
      return (
        <div className="sampling-part">
          <p className="sampling-part__label">
            Tool use:{' '}
            <code>
              <ServerText text={part.name} />
            </code>
          </p>
          <pre className="sampling-part__code">
            <ServerText text={part.inputJson} />
          </pre>
        </div>
      );
    case 'tool_result':
      return (
        <div className="sampling-part">
          <p className="sampling-part__label">
            Tool result{part.isError ? ' (error)' : ''} for <code>{part.toolUseId}</code>
          </p>
          <pre className="sampling-part__code">
            <ServerText text={part.text} />
          </pre>
        </div>
      );
  }
}
