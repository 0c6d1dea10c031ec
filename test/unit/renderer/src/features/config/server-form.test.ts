import { describe, expect, it } from 'vitest';
import {
  EMPTY_SERVER_FORM,
  parseServerForm,
} from '../../../../../../renderer/src/features/config/server-form.js';

describe('parseServerForm', () => {
  it('splits arguments by line and environment by KEY=VALUE', () => {
    const result = parseServerForm({
      name: ' everything ',
      command: 'node',
      args: 'server.js\n\n  stdio  \r\n',
      env: 'A=1\nB=x=y\n',
      cwd: '  ',
    });
    expect(result).toEqual({
      ok: true,
      input: { name: 'everything', command: 'node', args: ['server.js', 'stdio'], env: { A: '1', B: 'x=y' } },
    });
  });

  it('reports one message per field, with the shared schema’s wording', () => {
    const result = parseServerForm({ ...EMPTY_SERVER_FORM, name: 'bad/name', env: 'OK=1\nnot a pair' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.name).toMatch(/letters, digits/);
    expect(result.errors.command).toBe('Command is required');
    expect(result.errors.env).toBe('Line 2: write KEY=VALUE');
  });

  it('names the invalid or blocked environment variable', () => {
    const invalid = parseServerForm({ ...EMPTY_SERVER_FORM, name: 'x', command: 'y', env: 'BAD-NAME=1' });
    expect(invalid.ok ? undefined : invalid.errors.env).toBe('BAD-NAME: Invalid variable name');
    const blocked = parseServerForm({
      ...EMPTY_SERVER_FORM,
      name: 'x',
      command: 'y',
      env: 'LD_PRELOAD=/x.so',
    });
    expect(blocked.ok ? undefined : blocked.errors.env).toMatch(/cannot be set/);
  });
});
