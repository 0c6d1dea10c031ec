import { describe, expect, it } from 'vitest';
import { promptInsert } from '../../../../../../renderer/src/features/chat/prompt-insert.js';

const PIXEL = 'iVBORw0KGgo=';

describe('promptInsert', () => {
  it('puts the closing user text into the composer and keeps everything before, in order, with its role', () => {
    const insert = promptInsert({
      server: 's',
      name: 'p',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Be terse.' } },
        { role: 'assistant', content: { type: 'text', text: 'Understood.' } },
        { role: 'user', content: { type: 'text', text: 'Line one' } },
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: PIXEL } },
        { role: 'user', content: { type: 'text', text: 'Line two' } },
      ],
    });
    const twoLines = promptInsert({
      server: 's',
      name: 'p',
      messages: [
        { role: 'user', content: { type: 'text', text: 'a' } },
        { role: 'user', content: { type: 'text', text: 'b' } },
      ],
    });
    expect(twoLines).toEqual({ text: 'a\n\nb', messages: [] });
    expect(insert.text).toBe('Line two');
    expect(insert.messages.map((m) => [m.role, m.content.type])).toEqual([
      ['user', 'text'],
      ['assistant', 'text'],
      ['user', 'text'],
      ['user', 'image'],
    ]);
  });

  it('names what Claude cannot take (audio, other image types, links) in text', () => {
    const insert = promptInsert({
      server: 's',
      name: 'p',
      messages: [
        { role: 'assistant', content: { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' } },
        { role: 'assistant', content: { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' } },
        { role: 'assistant', content: { type: 'resource_link', uri: 'file:///a.txt', name: 'a' } },
      ],
    });
    expect(insert.text).toBe('');
    expect(insert.messages.map((m) => m.content)).toEqual([
      { type: 'text', text: '[audio audio/wav, not included]' },
      { type: 'text', text: '[image image/svg+xml, not included]' },
      { type: 'text', text: '[resource file:///a.txt (a)]' },
    ]);
  });
});
