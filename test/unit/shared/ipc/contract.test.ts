import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENTS_CHARS, requests } from '../../../../shared/ipc/contract.js';
import { MAX_MESSAGE_CHARS } from '../../../../shared/model/chat.js';
import { MAX_FRAME_BYTES } from '../../../../shared/ipc/wire.js';

/** The frame the bridge would send for a request, in UTF-8 bytes. */
const frameBytes = (method: string, params: unknown) =>
  Buffer.byteLength(JSON.stringify({ id: 1, method, params }), 'utf8');

describe('the contract and the frame cap agree', () => {
  it('the largest valid tool call fits in one frame, even in three-byte characters', () => {
    const params = {
      server: 's',
      tool: 't',
      argumentsJson: JSON.stringify({ m: '€'.repeat(MAX_ARGUMENTS_CHARS - 20) }),
    };
    expect(requests.callTool.params.safeParse(params).success).toBe(true);
    expect(frameBytes('callTool', params)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
  });

  it('the largest valid message (text and images) fits in one frame', () => {
    const image = { type: 'image', mimeType: 'image/png', data: 'A'.repeat(6_000_000) };
    const params = {
      conversationId: 'c1',
      text: '€'.repeat(1_000_000),
      attachments: [image, { ...image, data: 'A'.repeat(MAX_MESSAGE_CHARS - 7_000_000) }],
    };
    expect(requests.sendMessage.params.safeParse(params).success).toBe(true);
    expect(frameBytes('sendMessage', params)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
  });

  it('a message over the total is refused with its size', () => {
    const image = { type: 'image', mimeType: 'image/png', data: 'A'.repeat(6_000_000) };
    const parsed = requests.sendMessage.params.safeParse({
      conversationId: 'c1',
      text: 'hi',
      attachments: [image, image],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      'The message and its attachments are too large (12.0 MB; at most 10 MB)',
    );
  });

  it('the largest raw configuration fits in one frame', () => {
    const params = { text: '€'.repeat(4 * 1024 * 1024) };
    expect(requests.saveRawConfig.params.safeParse(params).success).toBe(true);
    expect(frameBytes('saveRawConfig', params)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
  });
});
