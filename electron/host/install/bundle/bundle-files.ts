import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { BundleSignature } from '../../../../shared/model/bundle.js';
import { HostError } from '../../errors.js';
import { MAX_MANIFEST_BYTES, parseManifest } from './bundle-manifest.js';
import type { BundleManifest } from './bundle-manifest.js';
import { checkBundleSignature } from './bundle-signature.js';
import { DEFAULT_ZIP_LIMITS, readZipEntries, readZipEntry } from './zip-archive.js';
import type { ZipEntry, ZipLimits } from './zip-archive.js';
import type { McpbNode } from './mcpb.js';

/**
 * Reading a bundle file and unpacking it. Opening checks everything that can
 * be checked without writing a byte: the signature, the archive's structure
 * and limits, and the manifest. Unpacking writes into a fresh folder beside
 * the target and renames it into place only when every file is written, so a
 * failure leaves nothing half-installed.
 */

export interface OpenedBundle {
  manifest: BundleManifest;
  signature: BundleSignature;
  entries: ZipEntry[];
  /** Files (not folders) and what they unpack to. */
  files: number;
  unpackedBytes: number;
}

/** Opens a bundle's bytes: signature, archive and manifest, in that order; throws one clear line. */
export async function openBundle(
  content: Buffer,
  mcpb: McpbNode,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<OpenedBundle & { zip: Buffer }> {
  const { signature, zip } = await checkBundleSignature(content, mcpb);
  const entries = readZipEntries(zip, limits);
  const manifestEntry = entries.find((entry) => entry.name === 'manifest.json');
  if (!manifestEntry)
    throw new HostError('invalid_params', 'This file is not a valid bundle: it has no manifest.json');
  if (manifestEntry.size > MAX_MANIFEST_BYTES)
    throw new HostError('invalid_params', 'This file is not a valid bundle: its manifest.json is too large');
  const manifest = parseManifest(await readZipEntry(zip, manifestEntry), mcpb);
  const files = entries.filter((entry) => !entry.directory);
  return {
    manifest,
    signature,
    entries,
    zip,
    files: files.length,
    unpackedBytes: files.reduce((sum, entry) => sum + entry.size, 0),
  };
}

/** Whether the bundle holds a file at this path (relative, forward slashes). */
export function hasFile(entries: readonly ZipEntry[], path: string): boolean {
  const wanted = path.replace(/^\.\//, '');
  return entries.some((entry) => !entry.directory && entry.name === wanted);
}

/**
 * Unpacks every entry into `target`, which must not exist yet: first into a
 * staging folder beside it (same disk, so the final rename is atomic), then
 * renamed. On any failure the staging folder is removed and `target` never
 * appears.
 */
export async function unpackBundle(zip: Buffer, entries: readonly ZipEntry[], target: string): Promise<void> {
  const parent = dirname(target);
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const staging = join(parent, `.staging-${randomBytes(6).toString('hex')}`);
  await mkdir(staging, { mode: 0o755 });
  try {
    for (const entry of entries) {
      const path = resolve(staging, ...entry.name.replace(/\/$/, '').split('/'));
      // Names were checked when the archive was read; this is the second lock on the same door.
      if (!path.startsWith(staging + sep))
        throw new HostError('invalid_params', `Refused to write outside the bundle: ${entry.name}`);
      if (entry.directory) {
        await mkdir(path, { recursive: true, mode: 0o755 });
        continue;
      }
      await mkdir(dirname(path), { recursive: true, mode: 0o755 });
      const executable = entry.mode !== undefined && (entry.mode & 0o111) !== 0;
      // 'wx': never through something already there (a link planted by an earlier entry cannot exist, but still).
      await writeFile(path, await readZipEntry(zip, entry), { flag: 'wx', mode: executable ? 0o755 : 0o644 });
      if (executable) await chmod(path, 0o755);
    }
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}
