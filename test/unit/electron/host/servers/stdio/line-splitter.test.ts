import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../../../../../electron/host/servers/stdio/line-splitter.js';
import type { OversizedLine } from '../../../../../../electron/host/servers/stdio/line-splitter.js';

function collect(max: number) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  const splitter = new LineSplitter(max, {
    onLine: (l) => lines.push(l),
    onOversized: (o) => oversized.push(o),
  });
  return { splitter, lines, oversized };
}

describe('LineSplitter', () => {
  it('joins lines split across chunks and strips CR', () => {
    const { splitter, lines } = collect(100);
    splitter.push(Buffer.from('{"a":'));
    splitter.push(Buffer.from('1}\r\n{"b":2}\nrest'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitter.pendingBytes).toBe(4);
  });

  it('never holds more than the cap: an endless line is reported and skipped', () => {
    const { splitter, lines, oversized } = collect(1024);
    for (let i = 0; i < 1000; i++) {
      splitter.push(Buffer.alloc(4096, 0x61));
      expect(splitter.pendingBytes).toBeLessThanOrEqual(1024);
    }
    splitter.push(Buffer.from('tail\nnext\n'));
    expect(oversized).toHaveLength(2);
    expect(oversized[0]).toMatchObject({ ended: false, tail: '' });
    expect(oversized[0]?.head).toMatch(/^a{256}$/);
    expect(oversized[1]).toMatchObject({ ended: true, bytes: 1000 * 4096 + 4 });
    expect(oversized[1]?.tail.endsWith('atail')).toBe(true);
    expect(lines).toEqual(['next']);
  });

  it('reports a whole oversized line that arrived in one chunk once, with head, tail and size', () => {
    const { splitter, lines, oversized } = collect(16);
    splitter.push(Buffer.from(`${'x'.repeat(10)}${'y'.repeat(20)}\nok\n`));
    expect(oversized).toEqual([
      {
        head: 'x'.repeat(10) + 'y'.repeat(20),
        tail: 'x'.repeat(10) + 'y'.repeat(20),
        bytes: 30,
        ended: true,
      },
    ]);
    expect(lines).toEqual(['ok']);
  });

  it('shows the start of an unfinished line, such as a prompt waiting for an answer', () => {
    const { splitter } = collect(1024);
    splitter.push(Buffer.from('{"a":1}\nOk to proceed? (y) '));
    expect(splitter.peekPending()).toBe('Ok to proceed? (y) ');
  });
});
