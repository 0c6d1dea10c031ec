import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  importLocations,
  parseImportText,
  previewServers,
  stripJsonComments,
  substituteInputs,
} from '../../../../../../electron/host/servers/config/config-import.js';
import { HostError } from '../../../../../../electron/host/errors.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../../fixtures/imports/${name}`, import.meta.url), 'utf8');

describe('Claude Desktop import', () => {
  const parsed = parseImportText('claude-desktop', fixture('claude_desktop_config.json'));

  it('reads every mcpServers entry, valid or not', () => {
    expect(parsed.servers.map((s) => s.name)).toEqual(['filesystem', 'github', 'broken']);
    expect(parsed.servers[0]?.config).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'],
    });
    expect(parsed.servers[2]?.config).toBeUndefined();
    expect(parsed.servers[2]?.problem).toMatch(/command|url/);
  });

  it('previews names, targets and env names but never env values, and flags conflicts', () => {
    const rows = previewServers(parsed.servers, new Set(['github']));
    expect(rows[1]).toMatchObject({
      name: 'github',
      transport: 'stdio',
      envNames: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
      conflict: true,
    });
    expect(JSON.stringify(rows)).not.toContain('ghp_example');
    expect(rows[0]?.conflict).toBe(false);
  });

  it('refuses a VS Code file (no mcpServers) with a clear message', () => {
    expect(() => parseImportText('claude-desktop', fixture('vscode-mcp.json'))).toThrow(
      /No "mcpServers" object found in the Claude Desktop text/,
    );
  });
});

describe('VS Code import', () => {
  const parsed = parseImportText('vscode', fixture('vscode-mcp.json'));

  it('reads JSONC (comments, trailing commas), servers and inputs', () => {
    expect(parsed.servers.map((s) => s.name)).toEqual(['perplexity', 'github', 'files']);
    expect(parsed.inputs).toEqual([
      { id: 'perplexity-key', description: 'Perplexity API Key', password: true },
      { id: 'workspace', description: 'Folder to serve', password: false },
      { id: 'unused', description: 'Not referenced by any server', password: false },
    ]);
    expect(parsed.servers.map((s) => s.inputIds)).toEqual([
      ['perplexity-key'],
      ['perplexity-key'],
      ['workspace'],
    ]);
  });

  it('keeps remote servers with their transport type and header names', () => {
    const rows = previewServers(parsed.servers, new Set());
    expect(rows[1]).toMatchObject({
      transport: 'http',
      target: 'https://api.githubcopilot.com/mcp/',
      headerNames: ['Authorization'],
    });
    expect(parsed.servers[1]?.config).toMatchObject({ type: 'http' });
  });

  it('substitutes ${input:id} with the given values everywhere', () => {
    const perplexity = parsed.servers[0]?.config;
    if (!perplexity) throw new Error('fixture');
    expect(substituteInputs(perplexity, { 'perplexity-key': 'pk-123' })).toMatchObject({
      env: { PERPLEXITY_API_KEY: 'pk-123' },
    });
    const github = parsed.servers[1]?.config;
    if (!github) throw new Error('fixture');
    expect(substituteInputs(github, { 'perplexity-key': 'pk-123' })).toMatchObject({
      headers: { Authorization: 'Bearer pk-123' },
    });
  });

  it('refuses to substitute when a value is missing, naming the input', () => {
    const files = parsed.servers[2]?.config;
    if (!files) throw new Error('fixture');
    expect(() => substituteInputs(files, {})).toThrow(HostError);
    expect(() => substituteInputs(files, {})).toThrow('A value is needed for: workspace');
  });
});

describe('Cursor import', () => {
  const parsed = parseImportText('cursor', fixture('cursor-mcp.json'));

  it('reads stdio and url servers and reports an invalid URL as a problem', () => {
    const rows = previewServers(parsed.servers, new Set());
    expect(rows.map((r) => [r.name, r.transport, r.problem === undefined])).toEqual([
      ['everything', 'stdio', true],
      ['remote-sse', 'http', true],
      ['bad-url', 'stdio', false],
    ]);
    expect(rows[0]?.envNames).toEqual(['DEBUG']);
    expect(rows[1]?.headerNames).toEqual(['X-Api-Key']);
    expect(JSON.stringify(rows)).not.toContain('secret');
  });
});

describe('pasted text', () => {
  it('accepts either shape', () => {
    expect(parseImportText('pasted', fixture('cursor-mcp.json')).servers).toHaveLength(3);
    expect(parseImportText('pasted', fixture('vscode-mcp.json')).servers).toHaveLength(3);
    expect(parseImportText('pasted', '{"mcp": {"servers": {"a": {"command": "x"}}}}').servers).toHaveLength(
      1,
    );
  });

  it('names, for a remote entry, the variables of your environment its URL and headers send there (issue 21)', () => {
    const parsed = parseImportText(
      'pasted',
      JSON.stringify({
        mcpServers: {
          notes: {
            url: 'https://notes.example/${env:TEAM}/mcp?key=${env:NOTES_KEY}',
            headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}', 'X-Team': '${env:TEAM}' },
          },
          local: { command: 'npx', args: ['-y', 'x'], env: { T: '${env:GITHUB_TOKEN}' } },
        },
      }),
    );
    const rows = previewServers(parsed.servers, new Set());
    expect(rows.find((r) => r.name === 'notes')).toMatchObject({
      target: 'https://notes.example/${env:TEAM}/mcp?key=${env:NOTES_KEY}',
      sentVariables: ['TEAM', 'NOTES_KEY', 'GITHUB_TOKEN'],
    });
    expect(rows.find((r) => r.name === 'local')?.sentVariables).toEqual([]);
  });

  it('reports invalid JSON as one line', () => {
    expect(() => parseImportText('pasted', '{"mcpServers": ')).toThrow(/not valid JSON/);
  });
});

describe('blocked environment variables', () => {
  it('refuses an entry that sets a loader-hijacking variable, as the add form does', () => {
    const parsed = parseImportText(
      'pasted',
      '{"mcpServers": {"evil": {"command": "node", "env": {"LD_PRELOAD": "/tmp/x.so"}}}}',
    );
    expect(parsed.servers[0]?.config).toBeUndefined();
    expect(parsed.servers[0]?.problem).toMatch(
      /^env: LD_PRELOAD cannot be set: it changes how programs load/,
    );
  });
});

describe('JSONC stripping', () => {
  it('leaves comment-like text and commas inside strings alone', () => {
    const text = '{"a": "http://x//y", "b": "/* no */", "c": ",}", /* gone */ "d": [1,2,], // end\n}';
    expect(JSON.parse(stripJsonComments(text))).toEqual({
      a: 'http://x//y',
      b: '/* no */',
      c: ',}',
      d: [1, 2],
    });
  });
});

describe('known locations', () => {
  it('per OS, from the host only', () => {
    const mac = importLocations({ platform: 'darwin', home: '/Users/me', env: {} });
    expect(mac.map((l) => l.path)).toEqual([
      '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
      '/Users/me/Library/Application Support/Code/User/mcp.json',
      '/Users/me/.cursor/mcp.json',
    ]);
    const linux = importLocations({ platform: 'linux', home: '/home/me', env: { XDG_CONFIG_HOME: '/cfg' } });
    expect(linux.map((l) => l.path)).toEqual([
      '/cfg/Claude/claude_desktop_config.json',
      '/cfg/Code/User/mcp.json',
      '/home/me/.cursor/mcp.json',
    ]);
  });
});
