import { describe, expect, it } from 'vitest';
import { toApiToolResult, toResultBlock } from '../../../../../electron/host/chat/tool-result-mapping.js';

const use = { type: 'tool_use' as const, id: 'tu_1', server: 'boxed', tool: 'read_canary', inputJson: '{}' };

describe('a tool result the sandbox got in the way of', () => {
  it('keeps what was blocked on the stored block and tells the model', () => {
    const content = [{ type: 'text' as const, text: 'Cannot read the key: EACCES' }];
    const block = toResultBlock(
      use,
      { status: 'error', isError: true, content, sandboxBlocked: ['read ~/.ssh/id_ed25519'] },
      { content },
    );
    expect(block.sandboxBlocked).toEqual(['read ~/.ssh/id_ed25519']);
    const wire = toApiToolResult(block);
    expect(wire.is_error).toBe(true);
    expect(wire.content).toContainEqual({
      type: 'text',
      text: "[Notice from the host: the server's OS sandbox blocked read ~/.ssh/id_ed25519 while this call ran; the person can allow it in the server's Settings.]",
    });
  });

  it('says nothing of the sandbox when it blocked nothing', () => {
    const content = [{ type: 'text' as const, text: 'no' }];
    const block = toResultBlock(use, { status: 'error', isError: true, content }, { content });
    expect(block).not.toHaveProperty('sandboxBlocked');
    expect(JSON.stringify(toApiToolResult(block))).not.toContain('sandbox');
  });
});
