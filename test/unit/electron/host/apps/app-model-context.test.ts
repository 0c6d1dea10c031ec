import { describe, expect, it } from 'vitest';
import { AppModelContext } from '../../../../../electron/host/apps/app-model-context.js';
import { toAppToolResult } from '../../../../../shared/model/app-tool-result.js';

describe('tool results for apps', () => {
  it('turns stored blocks back into MCP content, with structured content as an object', () => {
    const result = toAppToolResult({
      isError: false,
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', uri: 'file:///a.txt', mimeType: 'text/plain', text: 'body' },
        { type: 'resource', uri: 'file:///b.bin', blobBytes: 3 },
        { type: 'unknown', json: '{"type":"future","x":1}' },
      ],
      structuredContent: '{\n  "value": 42\n}',
    });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'body' } },
        { type: 'text', text: '[Binary resource file:///b.bin, 3 bytes]' },
        { type: 'future', x: 1 },
      ],
      structuredContent: { value: 42 },
    });
    expect(toAppToolResult({ isError: true, content: [], structuredContent: '[1]' })).toEqual({
      content: [],
      isError: true,
    });
  });
});

describe('model context from apps', () => {
  it('keeps the latest update per view and hands it over once', () => {
    const context = new AppModelContext();
    const base = { server: 's', resourceUri: 'ui://s/app.html' };
    context.set('c1', 'v1', { ...base, content: [{ type: 'text', text: 'first' }] });
    context.set('c1', 'v1', {
      ...base,
      content: [{ type: 'text', text: 'second' }],
      structuredContent: { n: 1 },
    });
    context.set('c1', 'v2', { ...base, content: [{ type: 'audio', data: 'x' }] });
    context.set('c2', 'v3', { ...base, content: [{ type: 'text', text: 'other conversation' }] });
    expect(context.take('c1')).toEqual([
      {
        type: 'resource_context',
        server: 's',
        uri: 'ui://s/app.html',
        content: [
          { type: 'text', text: 'second' },
          { type: 'text', text: '{\n  "n": 1\n}' },
        ],
      },
    ]);
    expect(context.take('c1')).toEqual([]);
    expect(context.take('c2')).toHaveLength(1);
  });
});
