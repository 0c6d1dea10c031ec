import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodePlatform } from '../../electron/host/node-platform.js';
import type { LaunchRequest } from '../../electron/host/platform.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { StdioServerConfig } from '../../shared/model/config.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { echoManifest, echoServerScript, packBundle } from '../helpers/bundles.js';
import { memoryKeychain } from '../helpers/memory-keychain.js';
import { tempDir } from '../helpers/servers.js';

/**
 * A bundle never reads the person's environment (issue 21, finding 6): not
 * through `${env:…}` written in its manifest (refused before), and not
 * through one assembled by substitution: a setting whose default is
 * `{env:X}` placed after a `$` in the manifest. Real bundles packed with the
 * official tooling, the real echo server reporting what reached it.
 */

const SECRET_NAME = 'MCP_HOST_TEST_BUNDLE_SECRET';
const SECRET = 'ghp_the-person-s-own-token';

beforeAll(() => {
  process.env[SECRET_NAME] = SECRET;
});
afterAll(() => {
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the variable this file set
  delete process.env[SECRET_NAME];
});
const hosts = hostsDisposedAfterEach();

async function host(
  servers: Record<string, StdioServerConfig> = {},
): Promise<TestHost & { launches: LaunchRequest[] }> {
  const launches: LaunchRequest[] = [];
  const platform = new NodePlatform(
    tempDir(),
    (request) => {
      launches.push(request);
      return Promise.resolve(true);
    },
    { keychain: memoryKeychain() },
  );
  const t = await hosts.create(servers, { platform });
  return { ...t, launches };
}

async function showSettings(api: HostRequests, name: string): Promise<Record<string, unknown>> {
  const result = value(await api.callTool({ server: name, tool: 'show_settings', argumentsJson: '{}' }));
  const [block] = result.content;
  if (block?.type !== 'text') throw new Error('expected text');
  return JSON.parse(block.text) as Record<string, unknown>;
}

/** The echo bundle with ECHO_GREETING = "$" followed by the greeting setting, defaulting to "{env:SECRET}". */
function assemblingManifest(): Record<string, unknown> {
  const manifest = echoManifest('1.0.0');
  const server = manifest.server as { mcp_config: { env: Record<string, string> } };
  server.mcp_config.env.ECHO_GREETING = '$${user_config.greeting}';
  const settings = manifest.user_config as Record<string, Record<string, unknown>>;
  settings.greeting = { ...settings.greeting, default: `{env:${SECRET_NAME}}` };
  return manifest;
}

describe('a bundle and the person’s environment', () => {
  it('refuses a bundle whose settings assemble ${env:…}; nothing is spawned and the secret goes nowhere', async () => {
    const path = await packBundle(assemblingManifest());
    // The packed manifest holds no `${env:` anywhere: only substitution would make one.
    expect(readFileSync(path).includes('${env:')).toBe(false);
    const t = await host();
    const bytes = readFileSync(path);
    const upload = value(
      await t.api.uploadBundleChunk({
        fileName: 'assembling.mcpb',
        totalBytes: bytes.length,
        offset: 0,
        data: bytes.toString('base64'),
      }),
    );
    const preview = value(
      await t.api.previewBundle({ source: { kind: 'upload', uploadId: upload.uploadId } }),
    );
    if (!preview) throw new Error('no preview');
    const installed = await t.api.installBundle({
      token: preview.token,
      values: { api_key: 'k', root: tempDir() },
    });
    expect(installed).toMatchObject({
      ok: false,
      error: {
        message:
          "The bundle's environment names a variable of your environment (${env:…}); bundles cannot read your environment",
      },
    });
    expect(t.launches).toEqual([]);
    const config = readFileSync(t.configPath, 'utf8');
    expect(config).not.toContain(SECRET);
    expect(config).not.toContain('settings-echo');
  }, 60_000);

  it('never expands ${env:…} in an installed bundle’s entry: the spawned server gets the text, not the secret', async () => {
    const dir = tempDir();
    const script = join(dir, 'server.mjs');
    writeFileSync(script, await echoServerScript());
    const t = await host({
      echo: {
        command: process.execPath,
        args: [script],
        env: { ECHO_GREETING: `\${env:${SECRET_NAME}}`, ECHO_VERSION: '1.0.0' },
        bundle: { id: 'settings-echo', version: '1.0.0' },
      },
    });
    value(await t.api.startServer({ name: 'echo' }));
    const report = await showSettings(t.api, 'echo');
    expect(report.greeting).toBe(`\${env:${SECRET_NAME}}`);
    expect(JSON.stringify(report)).not.toContain(SECRET);
  }, 60_000);
});
