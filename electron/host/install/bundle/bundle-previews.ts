import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { BUNDLE_FILE_MAX_BYTES } from '../../../../shared/model/bundle.js';
import { HostError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import { openBundle } from './bundle-files.js';
import type { OpenedBundle } from './bundle-files.js';
import type { McpbNode } from './mcpb.js';
import { checkTemplate, manifestCommand } from './bundle-launch.js';
import { BundleUploads } from './bundle-uploads.js';
import type { UploadChunk } from './bundle-uploads.js';

/** The bundles opened for a preview, by token: a checked private copy each, until installed, cancelled or expired. */

export interface HeldBundle {
  token: string;
  fileName: string;
  copy: string;
  opened: OpenedBundle;
  serverName: string;
  slot: string;
  createdAt: number;
}

export interface BundlePreviewsOptions {
  /** `<data>/bundles`. */
  root: string;
  platform: Pick<Platform, 'pickFolder' | 'pickFile'>;
  mcpb: () => Promise<McpbNode>;
  now: () => number;
}

const MAX_PREVIEWS = 4;
const PREVIEW_TTL_MS = 60 * 60_000;

export class BundlePreviews {
  private readonly uploads: BundleUploads;
  private readonly previews = new Map<string, HeldBundle>();

  constructor(private readonly options: BundlePreviewsOptions) {
    this.uploads = new BundleUploads(options.now);
  }

  get incoming(): string {
    return join(this.options.root, '.incoming');
  }

  uploadChunk(chunk: UploadChunk): { uploadId: string; received: number } {
    return this.uploads.append(chunk);
  }

  /** Opens an upload, or a file the person picks in the host's own dialog (null when cancelled). */
  async openSource(
    source: { kind: 'upload'; uploadId: string } | { kind: 'pick' },
  ): Promise<HeldBundle | null> {
    if (source.kind === 'upload') {
      const { fileName, bytes } = this.uploads.take(source.uploadId);
      return this.openBytes(bytes, fileName);
    }
    if (!this.options.platform.pickFile)
      throw new HostError(
        'invalid_params',
        'There is no file dialog here; drop the bundle onto the window instead',
      );
    const path = await this.options.platform.pickFile({
      title: 'Open an MCP bundle',
      extensions: ['mcpb', 'dxt'],
    });
    return path === null ? null : this.openFile(path);
  }

  /** Opens a bundle file on this computer (the CLI, the native dialog). */
  async openFile(path: string): Promise<HeldBundle> {
    const size = await stat(path).then(
      (s) => (s.isFile() ? s.size : -1),
      () => undefined,
    );
    if (size === undefined) throw new HostError('not_found', `There is no file at ${path}`);
    if (size < 0) throw new HostError('invalid_params', `${path} is not a file`);
    if (size > BUNDLE_FILE_MAX_BYTES)
      throw new HostError(
        'invalid_params',
        `This file is too large for a bundle (at most ${mib(BUNDLE_FILE_MAX_BYTES)})`,
      );
    return this.openBytes(await readFile(path), basename(path));
  }

  async openBytes(bytes: Buffer, fileName: string): Promise<HeldBundle> {
    if (bytes.length > BUNDLE_FILE_MAX_BYTES)
      throw new HostError(
        'invalid_params',
        `This file is too large for a bundle (at most ${mib(BUNDLE_FILE_MAX_BYTES)})`,
      );
    const opened = await openBundle(bytes, await this.options.mcpb());
    checkTemplate(manifestCommand(opened.manifest));
    const serverName = serverNameOf(opened.manifest.name);
    const token = randomBytes(18).toString('base64url');
    await mkdir(this.incoming, { recursive: true, mode: 0o700 });
    const copy = join(this.incoming, `${token}.mcpb`);
    await writeFile(copy, bytes, { mode: 0o600 });
    const slot = `${safeSegment(opened.manifest.version)}-${randomBytes(4).toString('hex')}`;
    this.hold({ token, fileName, copy, opened, serverName, slot, createdAt: this.options.now() });
    return this.held(token);
  }

  /** Forgets a preview (Cancel, or installed). */
  async discard(token: string): Promise<void> {
    const held = this.previews.get(token);
    if (!held) return;
    this.previews.delete(token);
    await rm(held.copy, { force: true }).catch(() => undefined);
  }

  /** The host's picker for a directory or file setting; null when cancelled or when there is no dialog. */
  async pickPath(token: string, key: string): Promise<string | null> {
    const option = this.held(token).opened.manifest.user_config?.[key];
    if (!option || (option.type !== 'directory' && option.type !== 'file'))
      throw new HostError('invalid_params', `"${key}" is not a folder or file setting`);
    const title = `Choose ${option.title || key}`;
    if (option.type === 'directory') return this.options.platform.pickFolder({ title });
    return this.options.platform.pickFile ? this.options.platform.pickFile({ title }) : null;
  }

  /** The preview behind a token, while it is open. */
  held(token: string): HeldBundle {
    const held = this.previews.get(token);
    if (!held || this.options.now() - held.createdAt > PREVIEW_TTL_MS)
      throw new HostError('not_found', 'This bundle is no longer open; open the file again');
    return held;
  }

  private hold(held: HeldBundle): void {
    const now = this.options.now();
    for (const [token, other] of this.previews) {
      if (now - other.createdAt > PREVIEW_TTL_MS) void this.discard(token);
    }
    while (this.previews.size >= MAX_PREVIEWS) {
      const [oldest] = this.previews.keys();
      if (oldest === undefined) break;
      // Fire-and-forget: removing the copy of a preview nobody can use any more.
      void this.discard(oldest);
    }
    this.previews.set(held.token, held);
  }
}

/** A manifest name made into a server name (letters, digits, spaces, dots, dashes, underscores; at most 64). */
export function serverNameOf(id: string): string {
  const name = id
    .replace(/[^A-Za-z0-9 ._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
    .trim();
  if (name === '')
    throw new HostError(
      'invalid_params',
      `The bundle's name "${id.slice(0, 80)}" cannot be used as a server name`,
    );
  return name;
}

function safeSegment(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 40) || 'bundle'
  );
}

const mib = (bytes: number): string => `${String(Math.round(bytes / (1024 * 1024)))} MiB`;
