import { describe, expect, it } from 'vitest';
import {
  hasInvisible,
  jsonTerminalSafe,
  revealInvisible,
  splitInvisible,
  terminalSafe,
} from '../../../../shared/text/invisible.js';

describe('invisible and control characters', () => {
  it('spells out bidi overrides, zero-width and tag characters, and nothing else', () => {
    expect(revealInvisible('safe\u202Eevil')).toBe('safe[U+202E]evil');
    expect(revealInvisible('a\u200Bb\u2066c\u{E0041}')).toBe('a[U+200B]b[U+2066]c[U+E0041]');
    // Emoji sequences and joiners in scripts that need them stay as they are.
    expect(revealInvisible('👩\u200D💻 née ﻻ')).toBe('👩\u200D💻 née ﻻ');
    expect(hasInvisible('plain')).toBe(false);
    expect(hasInvisible('x\u202Dy')).toBe(true);
    // No state is kept between calls: a check before a split does not hide the first character.
    expect(splitInvisible('x\u202Dy').filter((p) => p.invisible)).toHaveLength(1);
  });

  it('splits text around each invisible character', () => {
    expect(splitInvisible('ab\u202Ecd\u202C')).toEqual([
      { text: 'ab', invisible: false },
      { text: '\u202E', invisible: true },
      { text: 'cd', invisible: false },
      { text: '\u202C', invisible: true },
    ]);
  });

  it('makes terminal sequences inert, keeping tabs and (unless single-line) newlines', () => {
    expect(terminalSafe('a\u001b]0;t\u0007b\tc\nd\re\u009b2J')).toBe('a^[]0;t^Gb\tc\nd^Me[U+009B]2J');
    expect(terminalSafe('one\ntwo', { singleLine: true })).toBe('one^Jtwo');
  });

  it('escapes in JSON what JSON.stringify leaves raw, keeping the value', () => {
    const value = { text: 'x\u009b31m\u202Ey\u{E0041}' };
    const safe = jsonTerminalSafe(JSON.stringify(value));
    expect(safe).toBe('{"text":"x\\u009b31m\\u202ey\\udb40\\udc41"}');
    expect(JSON.parse(safe)).toEqual(value);
  });
});
