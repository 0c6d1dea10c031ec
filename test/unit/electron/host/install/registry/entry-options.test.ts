import { describe, expect, it } from 'vitest';
import { buildInstall } from '../../../../../../electron/host/install/install-recipe.js';
import type { Recipe } from '../../../../../../electron/host/install/install-recipe.js';
import { entryOptions } from '../../../../../../electron/host/install/registry/entry-options.js';
import { ServerResponseSchema } from '../../../../../../electron/host/install/registry/registry-schema.js';
import { entryView } from '../../../../../../electron/host/install/registry/registry-client.js';
import { freeServerName } from '../../../../../../electron/host/install/server-name.js';
import { registryEntries } from '../../../../../fixtures/registry/entries.mjs';

/** The fixture entry named `name` (latest), parsed as the client parses it. */
function response(name: string, patch?: (server: Record<string, unknown>) => void) {
  const raw = registryEntries().find((e) => e.server.name === name && e.server.version !== '2025.1.1');
  if (!raw) throw new Error(`no fixture entry ${name}`);
  patch?.(raw.server);
  return ServerResponseSchema.parse(raw);
}

function recipeOf(name: string, index = 0, patch?: (server: Record<string, unknown>) => void): Recipe {
  const option = entryOptions(response(name, patch))[index];
  if (!option?.recipe)
    throw new Error(`option ${String(index)} of ${name} has no recipe: ${option?.view.problem ?? ''}`);
  return option.recipe;
}

describe('registry entry → configuration entry', () => {
  it('npm: npx -y with the pinned version, package arguments, env; a secret becomes ${secret:…}', () => {
    const built = buildInstall(recipeOf('io.github.modelcontextprotocol/server-everything'), 'everything', {
      'env:EVERYTHING_API_KEY': 'sk-live-123',
    });
    expect(built.input).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
      env: { EVERYTHING_API_KEY: '${secret:ENV_EVERYTHING_API_KEY}', EVERYTHING_REGION: 'eu' },
    });
    expect(built.secrets).toEqual({ ENV_EVERYTHING_API_KEY: 'sk-live-123' });
    expect(JSON.stringify(built.input)).not.toContain('sk-live-123');
    expect(JSON.stringify(built.preview)).not.toContain('sk-live-123');
    expect(built.preview.secrets).toEqual(['EVERYTHING_API_KEY']);
  });

  it('a required secret left empty is refused; a choice outside the list is refused', () => {
    const recipe = recipeOf('io.github.modelcontextprotocol/server-everything');
    expect(() => buildInstall(recipe, 'e', {})).toThrow('"EVERYTHING_API_KEY" is required');
    expect(() =>
      buildInstall(recipe, 'e', { 'env:EVERYTHING_API_KEY': 'k', 'env:EVERYTHING_REGION': 'mars' }),
    ).toThrow('must be one of: eu, us');
    expect(() => buildInstall(recipe, 'e', { 'env:EVERYTHING_API_KEY': 'k', 'env:OTHER': 'x' })).toThrow(
      'asks for no value "env:OTHER"',
    );
  });

  it('a typed ${env:NAME} for a secret stays a reference instead of being stored', () => {
    const built = buildInstall(recipeOf('io.github.modelcontextprotocol/server-everything'), 'e', {
      'env:EVERYTHING_API_KEY': '${env:MY_KEY}',
    });
    expect(built.input).toMatchObject({ env: { EVERYTHING_API_KEY: '${env:MY_KEY}' } });
    expect(built.secrets).toEqual({});
  });

  it('an optional env variable left empty is not set', () => {
    const built = buildInstall(recipeOf('io.github.modelcontextprotocol/server-memory'), 'memory', {});
    expect(built.input).toMatchObject({
      args: ['-y', '@modelcontextprotocol/server-memory@2026.8.31'],
      env: {},
    });
  });

  it('PyPI: uvx name==version with a named argument and its default', () => {
    const built = buildInstall(recipeOf('io.github.example/weather'), 'weather', {
      'env:OPENWEATHER_API_KEY': 'abc',
    });
    expect(built.input).toMatchObject({
      command: 'uvx',
      args: ['mcp-weather==0.4.1', '--units', 'metric'],
      env: { OPENWEATHER_API_KEY: '${secret:ENV_OPENWEATHER_API_KEY}' },
    });
  });

  it('oci: docker run -i --rm, runtime arguments, -e NAME for each variable set, image:version, then the package arguments', () => {
    const recipe = recipeOf('io.github.example/postgres');
    const without = buildInstall(recipe, 'pg', { 'arg-1': 'postgresql://me@db/prod' });
    expect(without.input).toMatchObject({
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '--network',
        'mcp-net',
        'docker.io/mcp/postgres:0.6.2',
        'postgresql://me@db/prod',
      ],
      env: {},
    });
    const withPassword = buildInstall(recipe, 'pg', {
      'arg-1': 'postgresql://me@db/prod',
      'env:PGPASSWORD': 'pw',
    });
    expect(withPassword.input).toMatchObject({
      args: [
        'run',
        '-i',
        '--rm',
        '--network',
        'mcp-net',
        '-e',
        'PGPASSWORD',
        'docker.io/mcp/postgres:0.6.2',
        'postgresql://me@db/prod',
      ],
      env: { PGPASSWORD: '${secret:ENV_PGPASSWORD}' },
    });
  });

  it('remote: URL variables filled (encoded), a header with a secret variable stored encrypted', () => {
    const built = buildInstall(recipeOf('com.example/notes'), 'notes', {
      'url.tenant': 'my team',
      'header:Authorization.token': 'tok-1',
    });
    expect(built.input).toMatchObject({
      transport: 'http',
      url: 'https://notes.example.com/my%20team/mcp',
      type: 'streamable-http',
      headers: { Authorization: 'Bearer ${secret:HEADER_AUTHORIZATION_TOKEN}' },
    });
    expect(built.secrets).toEqual({ HEADER_AUTHORIZATION_TOKEN: 'tok-1' });
    expect(built.preview.launch).toMatchObject({ kind: 'remote', headerNames: ['Authorization'] });
    // The header is shown with its value; only the part typed as a secret is masked.
    expect(built.preview.launch).toMatchObject({
      headers: [{ name: 'Authorization', value: 'Bearer ••••••' }],
    });
    expect(() =>
      buildInstall(recipeOf('com.example/notes'), 'n', { 'header:Authorization.token': 'a\r\nX-Evil: 1' }),
    ).toThrow('cannot hold a line break');
    const sse = buildInstall(recipeOf('com.example/notes', 1), 'n', {});
    expect(sse.input).toMatchObject({ url: 'https://notes.example.com/sse', type: 'sse' });
  });

  it('a default or typed value never joins the entry’s text into ${env:…} (issue 21)', () => {
    // "$" in the entry, then a variable whose default is "{env:GITHUB_TOKEN}": no single text holds "${env:".
    const recipe = recipeOf('io.github.modelcontextprotocol/server-memory', 0, (s) => {
      const pkg = (s.packages as Record<string, unknown>[])[0] ?? {};
      pkg.environmentVariables = [
        {
          name: 'MEMORY_FILE_PATH',
          value: '${path}',
          variables: { path: { description: 'Where', default: '{env:GITHUB_TOKEN}' } },
        },
      ];
    });
    expect(() => buildInstall(recipe, 'memory', {})).toThrow(
      "A value of this install joins with the entry's own text into a reference to your variables or secrets",
    );
    expect(() => buildInstall(recipe, 'memory', { 'env:MEMORY_FILE_PATH.path': '{secret:OTHER}' })).toThrow(
      /joins with the entry's own text/,
    );
    expect(
      buildInstall(recipe, 'memory', { 'env:MEMORY_FILE_PATH.path': '/tmp/m.json' }).input,
    ).toMatchObject({
      env: { MEMORY_FILE_PATH: '$/tmp/m.json' },
    });
  });

  it('package types the app cannot run, and hostile entries, are one clear line each', () => {
    const problem = (name: string, index = 0, patch?: (s: Record<string, unknown>) => void) =>
      entryOptions(response(name, patch))[index]?.view.problem;
    expect(problem('io.github.example/dotnet-tools')).toBe(
      'NuGet packages (.NET tools) cannot be installed by this app yet',
    );
    expect(problem('io.github.example/bundle')).toMatch(/MCP bundle \(\.mcpb\)/);
    // An "identifier" npx would read as an option (--call runs a shell command) is not a package name.
    expect(problem('io.github.example/trick')).toBe('"--call=touch /tmp/pwned" is not an npm package name');
    const pkg = (s: Record<string, unknown>) => (s.packages as Record<string, unknown>[])[0] ?? {};
    expect(
      problem('io.github.modelcontextprotocol/server-memory', 0, (s) => (pkg(s).version = '^1.0.0')),
    ).toBe('"^1.0.0" is not a version the app can pin');
    expect(
      problem('io.github.modelcontextprotocol/server-memory', 0, (s) => {
        pkg(s).environmentVariables = [{ name: 'LD_PRELOAD', value: '/tmp/evil.so' }];
      }),
    ).toMatch(/LD_PRELOAD, which changes how programs load/);
    expect(
      problem('io.github.modelcontextprotocol/server-memory', 0, (s) => {
        pkg(s).environmentVariables = [{ name: 'LEAK', value: '${env:ANTHROPIC_API_KEY}' }];
      }),
    ).toMatch(/would read your own variables or secrets/);
    expect(
      problem('io.github.modelcontextprotocol/server-memory', 0, (s) => (pkg(s).runtimeHint = 'bunx')),
    ).toMatch(/asks to be run with "bunx"/);
    expect(
      problem(
        'io.github.modelcontextprotocol/server-memory',
        0,
        (s) => (pkg(s).transport = { type: 'streamable-http', url: 'http://localhost:3000/mcp' }),
      ),
    ).toMatch(/serves MCP over HTTP from your machine/);
    expect(
      problem('com.example/notes', 0, (s) => {
        (s.remotes as Record<string, unknown>[])[0] = {
          type: 'streamable-http',
          url: 'https://x.example.com/mcp?key={key}',
          variables: { key: { isSecret: true } },
        };
      }),
    ).toMatch(/secret inside its URL/);
  });

  it('the search view keeps only http(s) links and shows the registry text as it is (the UI reveals hidden characters)', () => {
    const view = entryView(response('io.github.example/trick'));
    expect(view.repositoryUrl).toBeUndefined();
    expect(view.title).toBe('Tri\u202Eck');
    expect(view.kinds).toEqual(['npm']);
    expect(entryView(response('com.example/notes')).kinds).toEqual(['remote']);
  });

  it('a name clash gets a free name suggested', () => {
    expect(freeServerName('server-memory', ['server-memory', 'server-memory-2'])).toBe('server-memory-3');
    expect(freeServerName('io.github.x/ünïcode!!', [])).toBe('io.github.x-unicode');
    expect(freeServerName('---', [])).toBe('server');
  });
});
