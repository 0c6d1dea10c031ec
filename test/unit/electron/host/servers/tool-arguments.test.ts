import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseToolArguments } from '../../../../../electron/host/servers/tool-arguments.js';

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

describe('null arguments', () => {
  const optional = {
    type: 'object',
    properties: {
      region: { type: 'string' },
      verbose: { type: 'boolean' },
      note: { type: ['string', 'null'] },
      anything: {},
    },
    required: ['region'],
  };

  it('omits a null the property does not admit, instead of refusing the call', () => {
    expect(parseToolArguments('{"region":"eu","verbose":null}', optional)).toEqual({ region: 'eu' });
  });

  it('keeps a null where the schema admits it or says nothing', () => {
    expect(parseToolArguments('{"region":"eu","note":null,"anything":null}', optional)).toEqual({
      region: 'eu',
      note: null,
      anything: null,
    });
  });

  it('still refuses a required property given as null: it was not provided', () => {
    expect(() => parseToolArguments('{"region":null}', optional)).toThrow(
      /must have required property 'region'/,
    );
  });
});

describe('remote $ref in an input schema', () => {
  it('is never fetched, and local constraints are still checked', async () => {
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end('{"type":"object","properties":{"displayName":{"type":"string"}}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { userId: { type: 'string', pattern: '^[a-z0-9-]+$' } },
      properties: {
        id: { $ref: '#/$defs/userId' },
        profile: { $ref: `http://127.0.0.1:${String(port)}/profile-schema.json` },
      },
      required: ['id'],
    };
    try {
      expect(parseToolArguments('{"id":"user-1","profile":{"displayName":"A"}}', schema)).toEqual({
        id: 'user-1',
        profile: { displayName: 'A' },
      });
      expect(() => parseToolArguments('{"id":"Not Valid!"}', schema)).toThrow(/must match pattern/);
      // Give a stray fetch time to land before counting.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
