import { describe, expect, it } from 'vitest';
import { promptAsText } from '../../../../../../renderer/src/features/resources-prompts/prompt-text.js';

describe('promptAsText', () => {
  it('joins text messages, inlines embedded text resources and names binary content', () => {
    const text = promptAsText({
      server: 'everything',
      name: 'resource-prompt',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Analyze this:' } },
        { role: 'user', content: { type: 'resource', uri: 'demo://a', text: 'A body' } },
        { role: 'user', content: { type: 'resource', uri: 'demo://b', blobBytes: 12 } },
        { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
      ],
    });
    expect(text).toBe(
      'Analyze this:\n\n<resource uri="demo://a">\nA body\n</resource>\n\n[binary resource demo://b]\n\nAssistant: [image image/png]',
    );
  });
});
