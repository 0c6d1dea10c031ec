import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { build } from 'esbuild';
import forge from 'node-forge';
import { packExtension, signMcpbFile } from '@anthropic-ai/mcpb';
import { tempDir } from './servers.js';

/**
 * Real .mcpb files for the tests, made with the official @anthropic-ai/mcpb
 * tooling (`packExtension`, `signMcpbFile`) around a real server on the MCP
 * server SDK (test/fixtures/bundles/settings-echo-server.mjs, bundled into one
 * file with esbuild as many published bundles are). Also a raw zip writer for
 * the hostile archives no packer would make (zip-slip names, links, bombs).
 */

const SERVER_SOURCE = fileURLToPath(new URL('../fixtures/bundles/settings-echo-server.mjs', import.meta.url));
let serverScript: Promise<string> | undefined;

/** The echo server as one self-contained ES module (built once per test file). */
export function echoServerScript(): Promise<string> {
  serverScript ??= (async () => {
    const out = join(tempDir(), 'server.mjs');
    await build({
      entryPoints: [SERVER_SOURCE],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      // Some dependencies call require() on Node built-ins.
      banner: {
        js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      },
    });
    return readFileSync(out, 'utf8');
  })();
  return serverScript;
}

export type Manifest = Record<string, unknown>;

/** The echo bundle's manifest at `version`: a sensitive key, a folder, a default and a number. */
export function echoManifest(version = '1.0.0', extra: Partial<Manifest> = {}): Manifest {
  return {
    manifest_version: '0.3',
    name: 'settings-echo',
    display_name: 'Settings Echo',
    version,
    description: 'Reports the settings it was started with.',
    author: { name: 'MCP Host tests', email: 'tests@example.com' },
    license: 'MIT',
    server: {
      type: 'node',
      entry_point: 'server/index.mjs',
      mcp_config: {
        command: 'node',
        args: [
          '${__dirname}/server/index.mjs',
          '--root',
          '${user_config.root}',
          '--limit',
          '${user_config.limit}',
        ],
        env: {
          ECHO_API_KEY: '${user_config.api_key}',
          ECHO_GREETING: '${user_config.greeting}',
          ECHO_VERSION: version,
        },
      },
    },
    tools: [{ name: 'show_settings', description: 'Reports the settings this server was started with' }],
    prompts: [{ name: 'greet', description: 'Says hello', text: 'Say hello' }],
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18.0.0' } },
    user_config: {
      api_key: { type: 'string', title: 'API key', description: 'Your key', sensitive: true, required: true },
      root: { type: 'directory', title: 'Folder', description: 'The folder to list', required: true },
      greeting: { type: 'string', title: 'Greeting', description: 'How to greet', default: 'hello' },
      limit: { type: 'number', title: 'Limit', description: 'How many', default: 3, min: 1, max: 10 },
    },
    ...extra,
  };
}

/** Version 2 of the echo bundle: one more required setting (region), passed as an environment variable. */
export function echoManifestV2(version = '2.0.0'): Manifest {
  const base = echoManifest(version);
  const server = base.server as { mcp_config: { env: Record<string, string> } };
  server.mcp_config.env.ECHO_REGION = '${user_config.region}';
  return {
    ...base,
    user_config: {
      ...(base.user_config as Record<string, unknown>),
      region: { type: 'string', title: 'Region', description: 'Where', required: true },
    },
  };
}

/** Packs a bundle folder (manifest.json, server/index.mjs, more files) with the official packer. */
export async function packBundle(manifest: Manifest, files: Record<string, string> = {}): Promise<string> {
  const dir = tempDir();
  const source = join(dir, 'bundle');
  mkdirSync(join(source, 'server'), { recursive: true });
  writeFileSync(join(source, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(source, 'server', 'index.mjs'), await echoServerScript());
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(source, path, '..'), { recursive: true });
    writeFileSync(join(source, path), text);
  }
  const out = join(dir, `${String(manifest.name)}-${String(manifest.version)}.mcpb`);
  const log = console.log;
  // The package's validator prints to the console even when packing silently.
  console.log = () => undefined;
  try {
    if (!(await packExtension({ extensionPath: source, outputPath: out, silent: true })))
      throw new Error('mcpb pack failed');
  } finally {
    console.log = log;
  }
  return out;
}

export interface TestCertificate {
  cert: string;
  key: string;
  commonName: string;
}

/** A self-signed code-signing certificate made for the test (no machine trusts it). */
export function selfSignedCertificate(commonName = 'MCP Host Test Publisher'): TestCertificate {
  const dir = tempDir();
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '0a1b2c3d';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const attrs = [{ name: 'commonName', value: commonName }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([{ name: 'extKeyUsage', codeSigning: true }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  writeFileSync(certPath, forge.pki.certificateToPem(cert));
  writeFileSync(keyPath, forge.pki.privateKeyToPem(keys.privateKey));
  return { cert: certPath, key: keyPath, commonName };
}

/** Signs a bundle in place with the official signer. */
export function signBundle(path: string, certificate: TestCertificate): void {
  signMcpbFile(path, certificate.cert, certificate.key);
}

/** Changes one byte in the middle of the signed zip (not its signature block): a tampered download. */
export function tamper(path: string): void {
  const bytes = readFileSync(path);
  const at = Math.floor((bytes.length - 2048) / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  writeFileSync(path, bytes);
}

export interface RawEntry {
  name: string;
  data?: string | Buffer;
  /** Unix mode including the file type (e.g. 0o120777 for a link). */
  mode?: number;
  /** Declared unpacked size (a lying header); default the real one. */
  declaredSize?: number;
  deflate?: boolean;
}

/** A zip written by hand, for archives the official packer would never make. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '', 'utf8');
    const packed = entry.deflate === true ? deflateRawSync(data) : data;
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? data.length;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(entry.deflate === true ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(entry.deflate === true ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
