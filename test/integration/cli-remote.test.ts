import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEverythingHttp, startHttpFixture } from '../helpers/http-servers.js';
import type { HttpServerProcess } from '../helpers/http-servers.js';
import { fixtureServer, writeConfig } from '../helpers/servers.js';

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));

function run(...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60_000 }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout });
    });
  });
}

const servers: HttpServerProcess[] = [];
let config: string;
beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
  const streamable = await startEverythingHttp('streamableHttp');
  const fixture = await startHttpFixture();
  servers.push(streamable, fixture);
  config = writeConfig({
    remote: { url: `${streamable.origin}/mcp` },
    fallback: { url: `${fixture.origin}/legacy-sse` },
    modern: fixtureServer('modern-server.mjs'),
  });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('mcp-host servers with remote servers and both eras', () => {
  it('shows the transport actually used and the negotiated era', async () => {
    const { code, stdout } = await run('servers', '--config', config);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^remote\s+connected\s+streamable-http\s+\d{4}-\d{2}-\d{2}\s+legacy\s+mcp-servers\/everything/m,
    );
    expect(stdout).toMatch(/^fallback\s+connected\s+sse\s+\d{4}-\d{2}-\d{2}\s+legacy\s+http-fixture/m);
    expect(stdout).toMatch(/^modern\s+connected\s+stdio\s+2026-07-28\s+modern\s+modern-fixture 2\.0\.0/m);
  });

  it('--json carries the same', async () => {
    const { stdout } = await run('servers', '--json', '--config', config);
    const rows = JSON.parse(stdout) as { name: string; transport: string; era: string }[];
    expect(rows.map((r) => [r.name, r.transport, r.era])).toEqual([
      ['remote', 'streamable-http', 'legacy'],
      ['fallback', 'sse', 'legacy'],
      ['modern', 'stdio', 'modern'],
    ]);
  });
});
