import { describe, expect, it } from 'vitest';
import { createFrameBatcher } from '../../../../../../renderer/src/features/chat/frame-batcher.js';
import { streamChunks } from '../../../../../../renderer/src/features/chat/stream-chunks.js';

describe('createFrameBatcher', () => {
  it('hands over everything pushed before a frame in one flush, and schedules one frame per burst', () => {
    const frames: (() => void)[] = [];
    const flushed: string[][] = [];
    const batcher = createFrameBatcher<string>(
      (items) => flushed.push(items),
      (callback) => frames.push(callback),
    );
    for (const delta of ['a', 'b', 'c']) batcher.push(delta);
    expect(frames).toHaveLength(1);
    expect(flushed).toEqual([]);
    frames.shift()?.();
    expect(flushed).toEqual([['a', 'b', 'c']]);
    batcher.push('d');
    batcher.flushNow();
    expect(flushed).toEqual([['a', 'b', 'c'], ['d']]);
    frames.shift()?.();
    expect(flushed).toHaveLength(2);
  });
});

describe('streamChunks', () => {
  it('splits at blank lines and joins back to the same text', () => {
    const text = '# Title\n\nFirst para\nstill first\n\nSecond';
    const chunks = streamChunks(text);
    expect(chunks).toEqual(['# Title\n', 'First para\nstill first\n', 'Second']);
  });

  it('never splits inside a code fence', () => {
    const text = 'Intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter';
    expect(streamChunks(text)).toEqual(['Intro\n', '```js\nconst a = 1;\n\nconst b = 2;\n```\n', 'After']);
  });

  it('keeps an unfinished fence (still streaming) in the last chunk', () => {
    expect(streamChunks('A\n\n~~~\ncode\n\nmore')).toEqual(['A\n', '~~~\ncode\n\nmore']);
  });

  it('earlier chunks do not change as text is appended', () => {
    const full = 'one\n\ntwo\n\nthree four five\n\nsix';
    let previous: string[] = [];
    for (let end = 1; end <= full.length; end++) {
      const chunks = streamChunks(full.slice(0, end));
      expect(chunks.slice(0, previous.length - 1)).toEqual(previous.slice(0, -1));
      previous = chunks;
    }
  });
});
