import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  nodeProxyPreload,
  withNodePreload,
} from '../../../../../../../../electron/host/servers/stdio/sandbox/network/node-preload.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the preload that routes a sandboxed Node server’s fetch through its proxy', () => {
  it('is added to the NODE_OPTIONS the server was given, quoted', () => {
    expect(withNodePreload(undefined, '/opt/MCP Host/dist/sandbox/node-proxy.cjs')).toBe(
      '--require "/opt/MCP Host/dist/sandbox/node-proxy.cjs"',
    );
    expect(withNodePreload('--max-old-space-size=512', '/a/p.cjs')).toBe(
      '--max-old-space-size=512 --require "/a/p.cjs"',
    );
    expect(withNodePreload('  ', '/a/"odd"\\p.cjs')).toBe('--require "/a/\\"odd\\"\\\\p.cjs"');
  });

  it('is found beside the bundled host (dist/<part>/ → dist/sandbox/), and not at all when it was not built', () => {
    const root = mkdtempSync(join(tmpdir(), 'node-preload-'));
    dirs.push(root);
    const bundle = pathToFileURL(join(root, 'dist', 'cli', 'mcp-host.mjs')).href;
    expect(nodeProxyPreload(bundle)).toBeUndefined();
    mkdirSync(join(root, 'dist', 'sandbox'), { recursive: true });
    writeFileSync(join(root, 'dist', 'sandbox', 'node-proxy.cjs'), '');
    expect(nodeProxyPreload(bundle)).toBe(join(root, 'dist', 'sandbox', 'node-proxy.cjs'));
  });

  it('is read from app.asar.unpacked in the packaged app (an outside process cannot read the archive)', () => {
    const root = mkdtempSync(join(tmpdir(), 'node-preload-'));
    dirs.push(root);
    mkdirSync(join(root, 'app.asar.unpacked', 'dist', 'sandbox'), { recursive: true });
    writeFileSync(join(root, 'app.asar.unpacked', 'dist', 'sandbox', 'node-proxy.cjs'), '');
    const main = pathToFileURL(join(root, 'app.asar', 'dist', 'electron', 'main.js')).href;
    expect(nodeProxyPreload(main)).toBe(join(root, 'app.asar.unpacked', 'dist', 'sandbox', 'node-proxy.cjs'));
  });
});
