/**
 * Characters a server can use to make text read as something it is not:
 * terminal control sequences (C0 and C1 controls: window titles, OSC 52
 * clipboard writes, clearing the screen) and invisible formatting characters
 * (bidirectional overrides that show "evil" as "live", zero-width spaces,
 * Unicode tag characters that hide text). Pure functions, used by the CLI
 * before printing and by the UI wherever server text reaches a decision.
 */

/** Bidirectional controls: embeddings, overrides, isolates and marks. */
const BIDI = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
/** Invisible characters with no place in names and decisions: zero-width space, word joiner, invisible operators, BOM, tags. */
const HIDDEN = '\\u00AD\\u200B\\u2060-\\u2064\\uFEFF\\u{E0000}-\\u{E007F}';

const INVISIBLE = new RegExp(`[${BIDI}${HIDDEN}]`, 'gu');
/** The same class without the global flag: `test` keeps no position between calls. */
const ANY_INVISIBLE = new RegExp(`[${BIDI}${HIDDEN}]`, 'u');
// Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;
// eslint-disable-next-line no-control-regex
const CONTROLS_AND_LINES = /[\u0000-\u001F\u007F-\u009F]/gu;

/** "U+202E": how an invisible or control character is shown. */
export const codePointLabel = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Whether the text holds a bidirectional control or another invisible character. */
export function hasInvisible(text: string): boolean {
  return ANY_INVISIBLE.test(text);
}

/**
 * Splits text into plain runs and the invisible characters between them, so
 * a view can draw each of the latter as a visible marker.
 */
export function splitInvisible(text: string): { text: string; invisible: boolean }[] {
  const parts: { text: string; invisible: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), invisible: false });
    parts.push({ text: match[0], invisible: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), invisible: false });
  return parts;
}

/** Invisible characters spelled out as "[U+202E]", everything else unchanged. */
export function revealInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => `[${codePointLabel(char)}]`);
}

/**
 * Text safe to write to a terminal: control characters (ESC, BEL, C1 …)
 * and invisible characters spelled out; tabs kept, and newlines kept unless
 * `singleLine` (table cells, one-line errors).
 */
export function terminalSafe(text: string, options: { singleLine?: boolean } = {}): string {
  const controls = options.singleLine === true ? CONTROLS_AND_LINES : CONTROLS;
  return revealInvisible(text).replace(controls, (char) => {
    const code = char.charCodeAt(0);
    if (char === '\t') return char;
    if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
    return `[${codePointLabel(char)}]`;
  });
}

/**
 * JSON text (from JSON.stringify) safe for a terminal with the same meaning:
 * the C1 controls and invisible characters that JSON.stringify leaves as they
 * are become \u escapes. (It already escapes C0 controls.)
 */
export function jsonTerminalSafe(json: string): string {
  return json.replace(new RegExp(`[\\u007F-\\u009F${BIDI}${HIDDEN}]`, 'gu'), (char) =>
    [...Array(char.length).keys()]
      .map((i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
  );
}
