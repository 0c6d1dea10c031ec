import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ToolResultChatBlock } from '../../../../../../shared/model/chat.js';
import { ChatStoreProvider } from '../../../../../../renderer/src/features/chat/chat-context.js';
import { createChatStore } from '../../../../../../renderer/src/features/chat/chat-store.js';
import { completeHost } from '../../../../../helpers/renderer/fake-host.js';
import { ToolResultBody } from '../../../../../../renderer/src/features/chat/tool-result-body.js';

const host = completeHost({ on: () => () => undefined });
const { store } = createChatStore(host, {
  getState: () => 'connecting',
  subscribe: () => () => undefined,
  hint: undefined,
});

const result = (text: string, totalChars?: number): ToolResultChatBlock => ({
  type: 'tool_result',
  toolUseId: 'toolu_1',
  server: 'everything',
  tool: 'echo',
  status: 'ok',
  isError: false,
  content: [{ type: 'text', text }],
  ...(totalChars !== undefined ? { truncated: { totalChars } } : {}),
});

const render = (block: ToolResultChatBlock): string =>
  renderToStaticMarkup(
    createElement(ChatStoreProvider, { store, children: createElement(ToolResultBody, { result: block }) }),
  );

describe('ToolResultBody', () => {
  it('shows a normal result as plain text, open', () => {
    const html = render(result('<b>not bold</b>'));
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).not.toContain('<details');
    expect(html).not.toContain('Show the full result');
  });

  it('folds a result of 1 MB or more, says it is shortened, and offers the full text', () => {
    const html = render(result('x'.repeat(1000), 2 * 1024 * 1024));
    expect(html).toMatch(/<details class="collapsible">/);
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(html).toContain('The result is 2.0 MB of text. The host cut it');
    expect(html).toContain('shortened version shown here (folded)');
    expect(html).toContain('Show the full result');
  });

  it('a cut result under 1 MB stays open but still offers the full text', () => {
    const html = render(result('x'.repeat(100), 200_000));
    expect(html).not.toContain('<details');
    expect(html).toContain('Show the full result');
  });
});
