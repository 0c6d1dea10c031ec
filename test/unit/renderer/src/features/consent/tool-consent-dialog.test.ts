import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ToolConsentDialog } from '../../../../../../renderer/src/features/consent/tool-consent-dialog.js';
import { InvisibleWarning, ServerText } from '../../../../../../renderer/src/common/server-text.js';
import { SamplingPartView } from '../../../../../../renderer/src/features/sampling/sampling-parts.js';

const RLO = '\u202E';
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F]/u;

describe('server text in a decision shows hidden characters instead of obeying them', () => {
  it('the tool consent dialog: name, title, description and arguments', () => {
    const html = renderToStaticMarkup(
      createElement(ToolConsentDialog, {
        request: {
          id: 'a'.repeat(22),
          kind: 'tool',
          server: 'files',
          createdAt: 0,
          prompt: {
            tool: `delete_${RLO}elif`,
            title: `Read ${RLO}only`,
            description: `Lists files.\u200B${RLO}ssap`,
            argumentsJson: JSON.stringify({ path: `/tmp/${RLO}fdp.exe` }),
          },
        },
        onAnswer: () => undefined,
        queued: 0,
        busy: false,
      }),
    );
    expect(html).not.toMatch(HIDDEN);
    expect(html.match(/>U\+202E</g)).toHaveLength(4);
    expect(html).toContain('title="Hidden character: U+202E right-to-left override"');
    expect(html).toContain('U+200B');
  });

  it('a sampling tool use', () => {
    const html = renderToStaticMarkup(
      createElement(SamplingPartView, {
        part: { type: 'tool_use', id: 't', name: `x${RLO}y`, inputJson: '{}' },
      }),
    );
    expect(html).not.toMatch(HIDDEN);
    expect(html).toContain('U+202E');
  });

  it('plain text is left as it is; an editable text gets a warning naming what it holds', () => {
    expect(renderToStaticMarkup(createElement(ServerText, { text: 'née 👩\u200D💻' }))).toBe(
      'née 👩\u200D💻',
    );
    expect(renderToStaticMarkup(createElement(InvisibleWarning, { text: 'plain' }))).toBe('');
    expect(renderToStaticMarkup(createElement(InvisibleWarning, { text: `a${RLO}b\u2066` }))).toContain(
      'U+202E right-to-left override, U+2066 left-to-right isolate',
    );
  });
});
