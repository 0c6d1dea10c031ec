import { describe, expect, it } from 'vitest';
import { headerDeclarationProblem } from '../../../../../electron/host/servers/tool-header-declarations.js';

const tool = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('x-mcp-header declarations', () => {
  it('accepts string, integer and boolean properties with distinct token names, and no declarations', () => {
    expect(
      headerDeclarationProblem(
        tool({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          nested: { type: 'object', properties: { on: { type: 'boolean', 'x-mcp-header': 'On' } } },
        }),
      ),
    ).toBeUndefined();
    expect(headerDeclarationProblem(tool({ text: { type: 'string' } }))).toBeUndefined();
  });

  it.each([
    ['empty', { v: { type: 'string', 'x-mcp-header': '' } }, /non-empty/],
    ['on an object', { v: { type: 'object', 'x-mcp-header': 'Data' } }, /got object/],
    ['on an array', { v: { type: 'array', 'x-mcp-header': 'Items' } }, /got array/],
    ['on null', { v: { type: 'null', 'x-mcp-header': 'Nil' } }, /got null/],
    ['on a number', { v: { type: 'number', 'x-mcp-header': 'Score' } }, /got number/],
    [
      'duplicate, other case',
      { a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } },
      /declared twice/,
    ],
    ['with a space', { v: { type: 'string', 'x-mcp-header': 'My Region' } }, /not a valid header name/],
    ['with a colon', { v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }, /not a valid header name/],
    ['non-ASCII', { v: { type: 'string', 'x-mcp-header': 'Région' } }, /not a valid header name/],
    ['with a tab', { v: { type: 'string', 'x-mcp-header': 'Region\t1' } }, /not a valid header name/],
    [
      'under items',
      { v: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
      /only permitted on properties reached/,
    ],
  ])('refuses a declaration %s', (_name, properties, reason) => {
    expect(headerDeclarationProblem(tool(properties))).toMatch(reason);
  });
});
