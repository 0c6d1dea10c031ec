import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyMcpbFile } from '@anthropic-ai/mcpb';
import { NodePlatform } from '../../electron/host/node-platform.js';
import type { LaunchRequest } from '../../electron/host/platform.js';
import type { BundlePreview } from '../../shared/model/bundle.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { StdioServerConfig } from '../../shared/model/config.js';
import { createTestHost, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import {
  echoManifest,
  echoManifestV2,
  packBundle,
  rawZip,
  selfSignedCertificate,
  signBundle,
  tamper,
} from '../helpers/bundles.js';
import { memoryKeychain } from '../helpers/memory-keychain.js';
import { fixtureServer, tempDir } from '../helpers/servers.js';

/**
 * Installing servers from real .mcpb bundles (packed and signed in the test
 * with the official @anthropic-ai/mcpb tooling) through the host's contract,
 * as the page does: upload, preview, install with settings, run, update,
 * uninstall, and every kind of bad input refused in one line with nothing
 * left behind and nothing spawned.
 */

interface Bed extends TestHost {
  keychain: ReturnType<typeof memoryKeychain>;
  launches: LaunchRequest[];
  dataDir: string;
  allow: { value: boolean };
}

const beds: Bed[] = [];
afterEach(async () => {
  await Promise.all(beds.splice(0).map((bed) => bed.dispose()));
});

async function bed(servers: Record<string, StdioServerConfig> = {}): Promise<Bed> {
  const keychain = memoryKeychain();
  const launches: LaunchRequest[] = [];
  const allow = { value: true };
  const dataDir = tempDir();
  const platform = new NodePlatform(
    dataDir,
    (request) => {
      launches.push(request);
      return Promise.resolve(allow.value);
    },
    { keychain },
  );
  const t = await createTestHost(servers, { platform });
  const made = { ...t, keychain, launches, dataDir, allow };
  beds.push(made);
  return made;
}

/** Uploads a file the way the page does (in pieces) and opens it. */
async function upload(api: HostRequests, path: string, chunkBytes = 64 * 1024): Promise<BundlePreview> {
  const bytes = readFileSync(path);
  let uploadId: string | undefined;
  for (let offset = 0; offset < bytes.length || offset === 0; offset += chunkBytes) {
    const data = bytes.subarray(offset, offset + chunkBytes).toString('base64');
    const piece = value(
      await api.uploadBundleChunk({
        ...(uploadId !== undefined ? { uploadId } : {}),
        fileName: path.split('/').pop() ?? 'x.mcpb',
        totalBytes: bytes.length,
        offset,
        data,
      }),
    );
    uploadId = piece.uploadId;
    if (bytes.length === 0) break;
  }
  const preview = value(await api.previewBundle({ source: { kind: 'upload', uploadId: uploadId ?? '' } }));
  if (!preview) throw new Error('no preview');
  return preview;
}

async function uploadError(api: HostRequests, path: string): Promise<string> {
  try {
    await upload(api, path);
  } catch (error) {
    return (error as Error).message.replace(/^expected ok, got [a-z_]+: /, '');
  }
  throw new Error('expected the bundle to be refused');
}

async function callShowSettings(api: HostRequests, name = 'settings-echo'): Promise<Record<string, unknown>> {
  const result = value(await api.callTool({ server: name, tool: 'show_settings', argumentsJson: '{}' }));
  const [block] = result.content;
  if (block?.type !== 'text') throw new Error('expected text');
  return JSON.parse(block.text) as Record<string, unknown>;
}

function folderWith(...files: string[]): string {
  const dir = tempDir();
  for (const file of files) writeFileSync(join(dir, file), file);
  return dir;
}

/** The host left nothing of a bundle that was not installed (or was uninstalled). */
function assertNothingInstalled(b: Bed): void {
  const bundles = join(b.dataDir, 'bundles');
  const left = existsSync(bundles) ? readdirSync(bundles).filter((name) => name !== '.incoming') : [];
  expect(left).toEqual([]);
  const records = join(b.dataDir, 'bundle-installs.json');
  if (existsSync(records))
    expect(JSON.parse(readFileSync(records, 'utf8'))).toEqual({ version: 1, bundles: {} });
  expect(b.keychain.entries.size).toBe(0);
  const config = JSON.parse(readFileSync(b.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
  expect(Object.keys(config.mcpServers).filter((name) => name === 'settings-echo')).toEqual([]);
}

let v1: string;
let v2: string;
beforeAll(async () => {
  [v1, v2] = await Promise.all([packBundle(echoManifest('1.0.0')), packBundle(echoManifestV2('2.0.0'))]);
}, 60_000);

describe('installing a bundle', () => {
  it('shows the bundle, installs it with its settings (the secret encrypted), runs it, updates it keeping the settings, and uninstalls it without a trace', async () => {
    const b = await bed();
    const preview = await upload(b.api, v1);
    expect(preview).toMatchObject({
      id: 'settings-echo',
      serverName: 'settings-echo',
      displayName: 'Settings Echo',
      version: '1.0.0',
      author: { name: 'MCP Host tests' },
      serverType: 'node',
      tools: [{ name: 'show_settings' }],
      prompts: [{ name: 'greet' }],
      platformOk: true,
      runtimes: { node: '>=18.0.0' },
      signature: { state: 'unsigned' },
      blockers: [],
    });
    expect(preview.runtime.found).toBe(true);
    expect(preview.fields.map((f) => [f.key, f.type, f.required, f.sensitive])).toEqual([
      ['api_key', 'string', true, true],
      ['root', 'directory', true, false],
      ['greeting', 'string', false, false],
      ['limit', 'number', false, false],
    ]);
    expect(preview.fields.find((f) => f.key === 'limit')).toMatchObject({ min: 1, max: 10, default: 3 });
    expect(preview.launch.envNames).toEqual(['ECHO_API_KEY', 'ECHO_GREETING', 'ECHO_VERSION']);
    expect(preview.permissions.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['program', 'folders', 'secrets', 'environment', 'network']),
    );
    // Nothing is unpacked, spawned or stored by looking.
    expect(b.launches).toEqual([]);
    expect(existsSync(join(b.dataDir, 'bundles', 'settings-echo'))).toBe(false);

    // A required setting left out: one clear line, nothing installed.
    const missing = await b.api.installBundle({
      token: preview.token,
      values: { root: folderWith('a.txt') },
    });
    expect(missing).toMatchObject({ ok: false, error: { message: '"API key" is required' } });
    assertNothingInstalled(b);

    const root = folderWith('a.txt', 'b.txt');
    const snapshot = value(
      await b.api.installBundle({
        token: preview.token,
        values: { api_key: 'sk-test-$&-secret', root, greeting: 'hi there' },
      }),
    );
    expect(snapshot).toMatchObject({
      name: 'settings-echo',
      status: 'connected',
      bundle: { id: 'settings-echo', version: '1.0.0' },
    });
    // The existing launch confirmation saw the exact command line (the secret only as its name).
    expect(b.launches).toHaveLength(1);
    const [launch] = b.launches;
    expect(launch).toMatchObject({ kind: 'stdio', name: 'settings-echo', command: 'node' });
    if (launch?.kind !== 'stdio') throw new Error('stdio launch expected');
    expect(launch.args).toEqual([
      expect.stringMatching(/bundles\/settings-echo\/1\.0\.0-[0-9a-f]{8}\/server\/index\.mjs$/),
      '--root',
      root,
      '--limit',
      '3',
    ]);
    expect(launch.envNames).toEqual(['ECHO_API_KEY', 'ECHO_GREETING', 'ECHO_VERSION']);

    // The server got every setting: the secret (with "$&" intact), the folder, the default, the text.
    expect(await callShowSettings(b.api)).toMatchObject({
      version: '1.0.0',
      apiKey: 'sk-test-$&-secret',
      greeting: 'hi there',
      limit: '3',
      root,
      files: ['a.txt', 'b.txt'],
    });
    // The secret is in the keychain only: not in the configuration file, not in the install record.
    expect(readFileSync(b.configPath, 'utf8')).not.toContain('sk-test');
    expect(readFileSync(join(b.dataDir, 'bundle-installs.json'), 'utf8')).not.toContain('sk-test');
    expect([...b.keychain.entries.values()]).toEqual(['sk-test-$&-secret']);
    const entry = (
      JSON.parse(readFileSync(b.configPath, 'utf8')) as { mcpServers: Record<string, StdioServerConfig> }
    ).mcpServers['settings-echo'];
    expect(entry?.env?.ECHO_API_KEY).toBe('${user_config.api_key}');
    expect(entry?.bundle).toEqual({ id: 'settings-echo', version: '1.0.0' });

    // Update: the preview says so, shows the kept values (never the secret) and marks the new setting.
    const next = await upload(b.api, v2);
    expect(next.installed).toEqual({ version: '1.0.0', relation: 'upgrade' });
    expect(next.blockers).toEqual([]);
    const fields = Object.fromEntries(next.fields.map((f) => [f.key, f]));
    expect(fields.api_key).toMatchObject({ stored: true });
    expect(fields.api_key).not.toHaveProperty('current');
    expect(fields.greeting).toMatchObject({ current: 'hi there' });
    expect(fields.root).toMatchObject({ current: root });
    expect(fields.region).toMatchObject({ added: true, required: true });
    expect(JSON.stringify(next)).not.toContain('sk-test');
    const updated = value(await b.api.installBundle({ token: next.token, values: { region: 'eu-west' } }));
    expect(updated).toMatchObject({ status: 'connected', bundle: { version: '2.0.0' } });
    expect(await callShowSettings(b.api)).toMatchObject({
      version: '2.0.0',
      apiKey: 'sk-test-$&-secret',
      greeting: 'hi there',
      region: 'eu-west',
      files: ['a.txt', 'b.txt'],
    });
    // One version on disk, one secret in the keychain.
    expect(readdirSync(join(b.dataDir, 'bundles', 'settings-echo'))).toEqual([
      expect.stringMatching(/^2\.0\.0-/),
    ]);
    expect(b.keychain.entries.size).toBe(1);

    // The same or an older version is said clearly.
    const older = await upload(b.api, v1);
    expect(older.installed).toEqual({ version: '2.0.0', relation: 'downgrade' });
    value(await b.api.discardBundle({ token: older.token }));
    expect(readdirSync(join(b.dataDir, 'bundles', '.incoming'))).toEqual([]);

    // Disable is the ordinary switch.
    expect(value(await b.api.setServerEnabled({ name: 'settings-echo', enabled: false })).status).toBe(
      'disabled',
    );

    // Uninstall: entry, files and secret gone.
    value(await b.api.uninstallBundle({ name: 'settings-echo' }));
    expect(value(await b.api.listServers({})).map((s) => s.name)).toEqual([]);
    assertNothingInstalled(b);
  }, 120_000);

  it('gives the secret only to the command line the bundle installed', async () => {
    const b = await bed();
    const preview = await upload(b.api, v1);
    value(
      await b.api.installBundle({
        token: preview.token,
        values: { api_key: 'sk-bound', root: folderWith('x') },
      }),
    );
    const input = value(await b.api.getServerInput({ name: 'settings-echo' }));
    if (input.transport !== 'stdio') throw new Error('stdio expected');
    // Someone edits the entry to send the key elsewhere (and the person allows the new command line).
    const edited = value(
      await b.api.saveServer({
        originalName: 'settings-echo',
        input: { ...input, args: [...input.args, '--exfiltrate', '${user_config.api_key}'] },
      }),
    );
    expect(edited.status).toBe('failed');
    expect(edited.error).toMatch(
      /was changed after it was installed from its bundle, so its secret settings are not given to it/,
    );
    // Removing it the ordinary way is an uninstall too.
    value(await b.api.removeServer({ name: 'settings-echo' }));
    assertNothingInstalled(b);
  }, 60_000);

  it('a bundle whose entry is deleted in the configuration file leaves no files or secrets behind', async () => {
    const b = await bed();
    const preview = await upload(b.api, v1);
    value(
      await b.api.installBundle({
        token: preview.token,
        values: { api_key: 'sk-gone', root: folderWith('x') },
      }),
    );
    expect(b.keychain.entries.size).toBe(1);
    value(await b.api.saveRawConfig({ text: '{ "mcpServers": {} }' }));
    assertNothingInstalled(b);
  }, 60_000);

  it('asks the launch confirmation last: declined, nothing is unpacked, stored or started', async () => {
    const b = await bed();
    b.allow.value = false;
    const preview = await upload(b.api, v1);
    const declined = await b.api.installBundle({
      token: preview.token,
      values: { api_key: 'sk-x', root: folderWith('x') },
    });
    expect(declined).toMatchObject({ ok: false, error: { code: 'denied' } });
    expect(b.launches).toHaveLength(1);
    expect(value(await b.api.listServers({}))).toEqual([]);
    assertNothingInstalled(b);
  }, 60_000);
});

describe('signatures', () => {
  it('shows who signed a bundle, and refuses one changed after signing', async () => {
    const certificate = selfSignedCertificate();
    const signed = await packBundle(echoManifest('1.0.0'));
    signBundle(signed, certificate);
    // The package's own verifyMcpbFile cannot tell (mcpb#276): it calls a PKCS#7 verify forge never implemented.
    expect((await verifyMcpbFile(signed)).status).toBe('unsigned');

    const b = await bed();
    const preview = await upload(b.api, signed);
    expect(preview.signature).toMatchObject({
      state: 'signed',
      publisher: 'MCP Host Test Publisher',
      issuer: 'MCP Host Test Publisher',
      selfSigned: true,
      trusted: false,
    });
    expect(preview.blockers).toEqual([]);

    const tampered = await packBundle(echoManifest('1.0.0'));
    signBundle(tampered, certificate);
    tamper(tampered);
    const bad = await upload(b.api, tampered);
    expect(bad.signature).toEqual({ state: 'invalid', reason: 'the file was changed after it was signed' });
    expect(bad.blockers).toEqual([
      'The signature is invalid (the file was changed after it was signed), so this bundle cannot be installed.',
    ]);
    const refused = await b.api.installBundle({
      token: bad.token,
      values: { api_key: 'k', root: folderWith('x') },
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'denied',
        message: expect.stringMatching(/^Nothing was installed: The signature is invalid/),
      },
    });
    expect(b.launches).toEqual([]);
    assertNothingInstalled(b);
  }, 60_000);
});

describe('bad input: one clear line, nothing installed, nothing spawned', () => {
  it('refuses what is not a bundle, an invalid manifest, a path leaving the bundle, a link and a zip bomb', async () => {
    const b = await bed();
    const dir = tempDir();
    const write = (name: string, bytes: Buffer | string) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    };
    const manifest = JSON.stringify(echoManifest());
    expect(await uploadError(b.api, write('notes.mcpb', 'just some text, not a zip'))).toBe(
      'This file is not a valid bundle: it is not a zip archive',
    );
    const { author: _author, ...noAuthor } = echoManifest();
    expect(
      await uploadError(
        b.api,
        write('no-author.mcpb', rawZip([{ name: 'manifest.json', data: JSON.stringify(noAuthor) }])),
      ),
    ).toMatch(/^The bundle's manifest is not valid: author: Required$/);
    expect(
      await uploadError(b.api, write('empty.mcpb', rawZip([{ name: 'server/index.mjs', data: '' }]))),
    ).toBe('This file is not a valid bundle: it has no manifest.json');
    expect(
      await uploadError(
        b.api,
        write(
          'slip.mcpb',
          rawZip([
            { name: 'manifest.json', data: manifest },
            { name: '../../evil.sh', data: 'x' },
          ]),
        ),
      ),
    ).toBe('This file is not a valid bundle: the path "../../evil.sh" leaves the bundle or is malformed');
    expect(
      await uploadError(
        b.api,
        write(
          'abs.mcpb',
          rawZip([
            { name: 'manifest.json', data: manifest },
            { name: '/etc/evil', data: 'x' },
          ]),
        ),
      ),
    ).toBe('This file is not a valid bundle: the path "/etc/evil" is absolute');
    expect(
      await uploadError(
        b.api,
        write(
          'link.mcpb',
          rawZip([
            { name: 'manifest.json', data: manifest },
            { name: 'server/ssh', data: '/home/me/.ssh', mode: 0o120777 },
          ]),
        ),
      ),
    ).toBe('This file is not a valid bundle: "server/ssh" is a symbolic link, which bundles may not contain');
    // 64 MiB of zeros deflate to ~64 KiB; the header says 1 KiB.
    expect(
      await uploadError(
        b.api,
        write(
          'bomb.mcpb',
          rawZip([
            {
              name: 'manifest.json',
              data: Buffer.alloc(64 * 1024 * 1024),
              deflate: true,
              declaredSize: 1024,
            },
          ]),
        ),
      ),
    ).toBe('This file is not a valid bundle: "manifest.json" unpacks to more than its header says');
    expect(
      await uploadError(
        b.api,
        write(
          'env.mcpb',
          rawZip([
            {
              name: 'manifest.json',
              data: JSON.stringify(
                echoManifest('1.0.0', {
                  server: {
                    type: 'node',
                    entry_point: 'x.js',
                    mcp_config: { command: 'node', args: ['x.js'], env: { T: '${env:GITHUB_TOKEN}' } },
                  },
                }),
              ),
            },
          ]),
        ),
      ),
    ).toBe(
      "The bundle's environment names a variable of your environment (${env:…}); bundles cannot read your environment",
    );
    expect(b.launches).toEqual([]);
    assertNothingInstalled(b);
  }, 60_000);

  it('refuses a bundle for another platform, and one whose name another server already has', async () => {
    const elsewhere = process.platform === 'win32' ? 'darwin' : 'win32';
    const foreign = await packBundle(echoManifest('1.0.0', { compatibility: { platforms: [elsewhere] } }));
    const taken = fixtureServer('logging-server.mjs');
    const b = await bed({ 'settings-echo': taken });
    const before = readFileSync(b.configPath, 'utf8');

    const other = await upload(b.api, foreign);
    expect(other.platformOk).toBe(false);
    expect(other.blockers[0]).toMatch(/^This bundle is for (Windows|macOS); this computer runs /);

    const clash = await upload(b.api, v1);
    expect(clash.blockers).toEqual([
      'A server named "settings-echo" already exists and was not installed from this bundle; rename or remove it first.',
    ]);
    const refused = await b.api.installBundle({
      token: clash.token,
      values: { api_key: 'k', root: folderWith('x') },
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        message: expect.stringMatching(
          /^Nothing was installed: A server named "settings-echo" already exists/,
        ),
      },
    });
    const uninstall = await b.api.uninstallBundle({ name: 'settings-echo' });
    expect(uninstall).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: '"settings-echo" was not installed from a bundle' },
    });
    expect(readFileSync(b.configPath, 'utf8')).toBe(before);
    expect(b.launches).toEqual([]);
    mkdirSync(join(b.dataDir, 'bundles'), { recursive: true });
    expect(readdirSync(join(b.dataDir, 'bundles')).filter((n) => n !== '.incoming')).toEqual([]);
  }, 60_000);
});
