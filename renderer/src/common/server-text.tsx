import { codePointLabel, hasInvisible, splitInvisible } from '../../../shared/text/invisible.js';

const NAMES: Record<string, string> = {
  '\u202A': 'left-to-right embedding',
  '\u202B': 'right-to-left embedding',
  '\u202C': 'pop directional formatting',
  '\u202D': 'left-to-right override',
  '\u202E': 'right-to-left override',
  '\u2066': 'left-to-right isolate',
  '\u2067': 'right-to-left isolate',
  '\u2068': 'first strong isolate',
  '\u2069': 'pop directional isolate',
  '\u200E': 'left-to-right mark',
  '\u200F': 'right-to-left mark',
  '\u061C': 'Arabic letter mark',
  '\u200B': 'zero-width space',
  '\u2060': 'word joiner',
  '\uFEFF': 'zero-width no-break space',
  '\u00AD': 'soft hyphen',
};

/** "U+202E right-to-left override": what a hidden character is, in words. */
export function describeInvisible(char: string): string {
  const name =
    NAMES[char] ?? ((char.codePointAt(0) ?? 0) >= 0xe0000 ? 'tag character' : 'invisible character');
  return `${codePointLabel(char)} ${name}`;
}

/**
 * Text a server wrote, shown so that it reads as what it is: bidirectional
 * overrides, zero-width and tag characters (which can make "evil" display as
 * "live" or hide words) are replaced by a visible marker naming them. Use it
 * wherever server text reaches a decision the person makes.
 */
export function ServerText({ text }: { text: string }) {
  if (!hasInvisible(text)) return <>{text}</>;
  return (
    <>
      {splitInvisible(text).map((part, i) =>
        part.invisible ? (
          <span
            key={i}
            className="invisible-char"
            title={`Hidden character: ${describeInvisible(part.text)}`}
          >
            {codePointLabel(part.text)}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

/**
 * For server text in an editable field, where markers cannot go: a warning
 * naming the hidden characters it holds. Renders nothing for plain text.
 */
export function InvisibleWarning({ text }: { text: string }) {
  if (!hasInvisible(text)) return null;
  const found = [
    ...new Set(
      splitInvisible(text)
        .filter((p) => p.invisible)
        .map((p) => p.text),
    ),
  ];
  return (
    <p className="invisible-warning" role="note">
      This text holds hidden characters that can change how it reads:{' '}
      {found.map(describeInvisible).join(', ')}.
    </p>
  );
}
