import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../../../shared/model/chat.js';
import { ChatStoreProvider } from '../../../../../../renderer/src/features/chat/chat-context.js';
import { createChatStore } from '../../../../../../renderer/src/features/chat/chat-store.js';
import { emptyConversationView } from '../../../../../../renderer/src/features/chat/chat-state.js';
import { StreamingMessage } from '../../../../../../renderer/src/features/chat/streaming-message.js';
import { StoreProvider } from '../../../../../../renderer/src/store/store-context.js';
import { createAppStore } from '../../../../../../renderer/src/store/app-store.js';
import { completeHost, fakeConnection } from '../../../../../helpers/renderer/fake-host.js';

const host = completeHost({ on: () => () => undefined });
const { connection } = fakeConnection('connected');

const interrupted: ChatMessage = {
  id: 'n1',
  conversationId: 'c1',
  turnId: 't1',
  role: 'notice',
  blocks: [
    {
      type: 'notice',
      level: 'warning',
      kind: 'interrupted',
      text: 'Interrupted: the host stopped before Claude finished answering. Retry to ask again.',
    },
  ],
  createdAt: 2,
};

/** The partial answer of turn t1, cut off when the host went away, beside these committed messages. */
function render(messages: ChatMessage[]): string {
  const chat = createChatStore(host, connection, () => undefined).store;
  chat.setState({
    details: {
      c1: {
        ...emptyConversationView,
        messages,
        streaming: { messageId: 'a1', turnId: 't1', text: 'Half an ans', thinking: '', cutOff: true },
      },
    },
  });
  const app = createAppStore(host, connection);
  return renderToStaticMarkup(
    createElement(StoreProvider, {
      store: app.store,
      children: createElement(ChatStoreProvider, {
        // Server rendering reads a store's initial state: hand it the state set above.
        store: { ...chat, getInitialState: chat.getState },
        children: createElement(StreamingMessage, { id: 'c1' }),
      }),
    }),
  );
}

describe('StreamingMessage: an answer cut off by the host', () => {
  it('says it was cut off when nothing else in the conversation says so', () => {
    const html = render([]);
    expect(html).toContain('Half an ans');
    expect(html).toContain('Cut off: the host stopped before this answer was finished');
  });

  it('adds no second notice when the host already marked the turn interrupted', () => {
    const html = render([interrupted]);
    expect(html).toContain('Half an ans');
    expect(html).toContain('Partial answer, cut off');
    expect(html).not.toContain('Cut off:');
  });
});
