import type { PromptResult } from '../../../../shared/model/features.js';
import { plural } from '../../common/text.js';
import { ContentBlockView } from '../tools/content-block.js';

/** A prompts/get result as the conversation messages it stands for. */
export function PromptMessages({ result }: { result: PromptResult }) {
  return (
    <section aria-label="Prompt messages" className="result">
      <header className="result__header">
        <span className="result__title">Messages</span>
        <span className="result__meta">{plural(result.messages.length, 'message')}</span>
      </header>
      {result.description !== undefined && <p className="muted">{result.description}</p>}
      <ol className="prompt-messages">
        {result.messages.map((message, index) => (
          // Messages have no identity of their own; the list is replaced whole.
          <li key={index} className={`prompt-message prompt-message--${message.role}`}>
            <span className="prompt-message__role">{message.role === 'user' ? 'User' : 'Assistant'}</span>
            <ContentBlockView block={message.content} />
          </li>
        ))}
      </ol>
    </section>
  );
}
