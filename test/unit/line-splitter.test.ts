import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../electron/host/servers/line-splitter.js';

function collect(max: number) {
  const lines: string[] = [];
  const oversized: string[] = [];
  const splitter = new LineSplitter(
    max,
    (l) => lines.push(l),
    (p) => oversized.push(p),
  );
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
    expect(oversized).toHaveLength(1);
    expect(lines).toEqual(['next']);
  });
});
