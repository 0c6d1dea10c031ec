import { describe, expect, it } from 'vitest';
import { SandboxConfigSchema, sandboxConfigProblem } from '../../../../shared/model/sandbox.js';

describe('a per-server sandbox policy', () => {
  it('names the key and the value of a malformed host', () => {
    expect(sandboxConfigProblem({ allowHosts: ['api.example.com', 'foo bar'] })).toBe(
      'allowHosts: "foo bar" is not a host name (write names like api.example.com or *.example.com)',
    );
  });

  it('refuses relative and empty paths, naming the list', () => {
    expect(sandboxConfigProblem({ allowRead: ['projects/notes'] })).toBe(
      'allowRead: "projects/notes" is not a full path (start with / or ~/)',
    );
    expect(sandboxConfigProblem({ allowWrite: ['  '] })).toMatch(/^allowWrite: /);
  });

  it('accepts full paths, the home folder, wildcard hosts and ports', () => {
    const config = {
      enabled: true,
      allowRead: ['~/projects', '/srv/data', '~', 'C:\\Users\\me'],
      allowWrite: ['~/out'],
      allowHosts: ['api.github.com', '*.example.com', '127.0.0.1:5432'],
    };
    expect(sandboxConfigProblem(config)).toBeUndefined();
    expect(SandboxConfigSchema.parse(config)).toEqual(config);
  });

  it('refuses a key it does not know, naming it', () => {
    expect(sandboxConfigProblem({ allowHost: ['x'] })).toMatch(/allowHost/);
  });
});
