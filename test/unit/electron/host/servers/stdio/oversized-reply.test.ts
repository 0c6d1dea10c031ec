import { describe, expect, it } from 'vitest';
import {
  oversizedReplyError,
  oversizedResponseId,
} from '../../../../../../electron/host/servers/stdio/oversized-reply.js';
import type { OversizedLine } from '../../../../../../electron/host/servers/stdio/line-splitter.js';

const line = (head: string, tail = '', ended = false): OversizedLine => ({
  head,
  tail,
  bytes: 50 << 20,
  ended,
});

describe('oversizedResponseId', () => {
  it('finds the id of a response in its head, before the rest has arrived', () => {
    expect(
      oversizedResponseId(line('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxx')),
    ).toBe(7);
    expect(oversizedResponseId(line('{"id":"abc","jsonrpc":"2.0","error":{"code":1,"message":"xxx'))).toBe(
      'abc',
    );
  });

  it('finds an id that comes after the result only once the line has ended', () => {
    const head = '{"result":{"content":[{"type":"text","text":"xxxx';
    expect(oversizedResponseId(line(head))).toBeUndefined();
    expect(oversizedResponseId(line(head, 'xxxx"}]},"jsonrpc":"2.0","id":12}', true))).toBe(12);
    expect(oversizedResponseId(line(head, 'xxxx"}]},"id":12}\r', true))).toBe(12);
  });

  it('never takes the id of a request or notification from the server, or of text inside the result', () => {
    expect(
      oversizedResponseId(line('{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{')),
    ).toBeUndefined();
    expect(
      oversizedResponseId(line('{"method":"notifications/message","params":{"data":"x', 'x","id":4}', true)),
    ).toBeUndefined();
    expect(
      oversizedResponseId(line('{"result":{"content":[{"type":"text","text":"\\"id\\":5', 'x"}]}}', true)),
    ).toBeUndefined();
    expect(oversizedResponseId(line('garbage garbage', '"id":3}', true))).toBeUndefined();
  });
});

describe('oversizedReplyError', () => {
  it('is an error response for that id that says how large and what the limit is', () => {
    const ended = oversizedReplyError(4, { head: '', tail: '', bytes: 52_428_800, ended: true }, 16 << 20);
    expect(ended).toMatchObject({ jsonrpc: '2.0', id: 4, error: { code: -32603 } });
    expect(ended.error.message).toBe('it was 50 MiB, more than the 16 MiB the host reads in one message');
    const early = oversizedReplyError('a', { head: '', tail: '', bytes: 17 << 20, ended: false }, 16 << 20);
    expect(early.error.message).toBe('it passed the 16 MiB the host reads in one message');
  });
});
