import { describe, expect, it } from 'vitest';
import { API_TOOL_NAME, ToolNameTable } from '../../../../../electron/host/chat/tool-names.js';

describe('ToolNameTable', () => {
  it('keeps plain "<server>__<tool>" names when they are valid and unique', () => {
    const table = new ToolNameTable([{ server: 'everything', tool: 'echo' }]);
    expect(table.apiName({ server: 'everything', tool: 'echo' })).toBe('everything__echo');
    expect(table.resolve('everything__echo')).toEqual({ server: 'everything', tool: 'echo' });
  });

  it('sanitizes, shortens and disambiguates, and every name maps back to exactly one tool', () => {
    const refs = [
      { server: 'my server', tool: 'read.file' },
      { server: 'my_server', tool: 'read_file' },
      { server: 'a', tool: 'b__c' },
      { server: 'a__b', tool: 'c' },
      { server: 'long', tool: 'x'.repeat(200) },
      { server: 'long', tool: `${'x'.repeat(199)}y` },
      { server: 'ünï', tool: 'código' },
    ];
    const table = new ToolNameTable(refs);
    const names = refs.map((ref) => table.apiName(ref) ?? '');
    expect(new Set(names).size).toBe(refs.length);
    for (const [i, name] of names.entries()) {
      expect(name).toMatch(API_TOOL_NAME);
      expect(table.resolve(name)).toEqual(refs[i]);
    }
  });

  it('gives the same names whatever the order of the tools', () => {
    const refs = [
      { server: 'a', tool: 'b__c' },
      { server: 'a__b', tool: 'c' },
      { server: 's', tool: 't' },
    ];
    const forward = new ToolNameTable(refs);
    const backward = new ToolNameTable([...refs].reverse());
    for (const ref of refs) expect(forward.apiName(ref)).toBe(backward.apiName(ref));
  });

  it('does not resolve names it did not issue', () => {
    const table = new ToolNameTable([{ server: 's', tool: 't' }]);
    expect(table.resolve('s__u')).toBeUndefined();
  });
});
