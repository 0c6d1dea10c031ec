import { describe, expect, it } from 'vitest';
import { argumentsSkeleton } from '../../../../../../renderer/src/features/tools/schema-skeleton.js';

const parse = (schema: Record<string, unknown>): unknown => JSON.parse(argumentsSkeleton(schema));

describe('argumentsSkeleton', () => {
  it('fills required properties with a placeholder of their type and leaves optional ones out', () => {
    const schema = {
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        a: { type: 'array', items: { type: 'string' } },
        o: { type: 'object' },
        optional: { type: 'string' },
      },
      required: ['s', 'n', 'i', 'b', 'a', 'o'],
    };
    expect(parse(schema)).toEqual({ s: '', n: 0, i: 0, b: false, a: [], o: {} });
  });

  it('prefers default, const and the first enum value', () => {
    const schema = {
      properties: {
        d: { type: 'number', default: 5 },
        c: { const: 'fixed' },
        e: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        nullable: { type: ['null', 'string'] },
        union: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
      },
      required: ['d', 'c', 'e', 'nullable', 'union'],
    };
    expect(parse(schema)).toEqual({ d: 5, c: 'fixed', e: 'celsius', nullable: '', union: false });
  });

  it('gives {} for a schema without required properties, and is pretty-printed', () => {
    expect(argumentsSkeleton({ type: 'object', properties: { x: { type: 'string' } } })).toBe('{}');
    expect(argumentsSkeleton({ properties: { m: { type: 'string' } }, required: ['m'] })).toBe(
      '{\n  "m": ""\n}',
    );
  });
});
