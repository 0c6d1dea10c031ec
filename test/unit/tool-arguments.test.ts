import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../electron/host/servers/tool-arguments.js';

const schema = {
  type: 'object',
  properties: { message: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
  required: ['message'],
};

describe('tool arguments', () => {
  it('accepts arguments that match the schema', () => {
    expect(parseToolArguments('{"message":"hi","count":2}', schema)).toEqual({ message: 'hi', count: 2 });
  });

  it('treats empty input as {}', () => {
    expect(parseToolArguments('  ', { type: 'object' })).toEqual({});
  });

  it('reports malformed JSON', () => {
    expect(() => parseToolArguments('{"message":', schema)).toThrow(/^Arguments are not valid JSON: /);
  });

  it('requires an object', () => {
    expect(() => parseToolArguments('[1]', schema)).toThrow(/must be a JSON object/);
  });

  it('names the property that breaks the schema', () => {
    expect(() => parseToolArguments('{"message":"x","count":0}', schema)).toThrow(/count must be >= 1/);
    expect(() => parseToolArguments('{}', schema)).toThrow(/must have required property 'message'/);
  });
});
