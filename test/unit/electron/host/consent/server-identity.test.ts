import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../../../shared/model/config.js';
import { serverIdentity } from '../../../../../electron/host/consent/server-identity.js';

const stdio: ServerConfig = {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
  env: { API_TOKEN: 'one', LOG_LEVEL: 'debug' },
};
const hash = (config: ServerConfig): string => serverIdentity(config).hash;

describe('server identity', () => {
  it('is a SHA-256 of what runs, and the same config always gives the same identity', () => {
    const identity = serverIdentity(stdio);
    expect(identity.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(identity.parts).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      envNames: ['API_TOKEN', 'LOG_LEVEL'],
    });
    expect(hash({ ...stdio })).toBe(identity.hash);
  });

  it('changes with the command, any argument, their order, the env names or the folder', () => {
    const base = hash(stdio);
    expect(hash({ ...stdio, command: 'node' })).not.toBe(base);
    expect(hash({ ...stdio, args: ['-y', '@evil/server-filesystem', '/tmp'] })).not.toBe(base);
    expect(hash({ ...stdio, args: ['-y', '@modelcontextprotocol/server-filesystem', '/'] })).not.toBe(base);
    expect(hash({ ...stdio, args: ['@modelcontextprotocol/server-filesystem', '-y', '/tmp'] })).not.toBe(
      base,
    );
    expect(hash({ ...stdio, args: [] })).not.toBe(base);
    expect(hash({ ...stdio, env: { API_TOKEN: 'one' } })).not.toBe(base);
    expect(hash({ ...stdio, env: { ...stdio.env, NODE_DEBUG: '1' } })).not.toBe(base);
    expect(hash({ ...stdio, env: { OTHER_TOKEN: 'one', LOG_LEVEL: 'debug' } })).not.toBe(base);
    expect(hash({ ...stdio, cwd: '/home/me/project' })).not.toBe(base);
  });

  it('does not change with env values, their order, or settings that do not change what runs', () => {
    const base = hash(stdio);
    expect(hash({ ...stdio, env: { LOG_LEVEL: 'info', API_TOKEN: 'rotated' } })).toBe(base);
    expect(hash({ ...stdio, disabled: true, timeout: 5, disabledTools: ['x'], roots: ['file:///tmp'] })).toBe(
      base,
    );
    expect(hash({ ...stdio, cwd: '  ' })).toBe(base);
  });

  it('an argument boundary is part of the identity (no two argument lists collide)', () => {
    expect(hash({ command: 'node', args: ['a b'] })).not.toBe(hash({ command: 'node', args: ['a', 'b'] }));
    expect(hash({ command: 'node a', args: [] })).not.toBe(hash({ command: 'node', args: ['a'] }));
  });

  it('a remote server is its URL: normalised, without fragment; headers and transport do not count', () => {
    const remote: ServerConfig = { url: 'https://mcp.example.com/mcp' };
    const base = hash(remote);
    expect(serverIdentity(remote).parts).toEqual({ kind: 'remote', url: 'https://mcp.example.com/mcp' });
    expect(hash({ url: 'HTTPS://MCP.Example.com:443/mcp#top' })).toBe(base);
    expect(hash({ ...remote, headers: { Authorization: 'Bearer x' }, type: 'sse' })).toBe(base);
    expect(hash({ url: 'https://mcp.example.com/mcp/other' })).not.toBe(base);
    expect(hash({ url: 'https://mcp.evil.example/mcp' })).not.toBe(base);
    expect(hash({ url: 'http://mcp.example.com/mcp' })).not.toBe(base);
    expect(hash({ url: 'https://mcp.example.com:8443/mcp' })).not.toBe(base);
    expect(hash({ url: 'https://mcp.example.com/mcp?tenant=2' })).not.toBe(base);
  });

  it('a local and a remote server never share an identity', () => {
    expect(hash({ command: 'https://mcp.example.com/mcp' })).not.toBe(
      hash({ url: 'https://mcp.example.com/mcp' }),
    );
  });
});
