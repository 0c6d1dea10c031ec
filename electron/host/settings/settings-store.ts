import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MODEL,
  DEFAULT_TOOL_SEARCH,
  PinnedToolSchema,
  ToolSearchSettingsSchema,
} from '../../../shared/model/settings.js';
import type { PinnedTool, Settings, UpdateSettings } from '../../../shared/model/settings.js';
import type { Platform } from '../platform.js';

export const SETTINGS_FILE_NAME = 'chat-settings.json';

const StoredSettingsSchema = z.looseObject({
  baseUrl: z.string().optional(),
  model: z.string().optional(),
  maxIterations: z.number().int().min(1).max(200).optional(),
  toolSearch: ToolSearchSettingsSchema.optional(),
  pinnedTools: z.array(PinnedToolSchema).max(10_000).optional(),
  apiKey: z
    .object({
      /** Output of platform.encryptSecret; never the key in clear. */
      stored: z.string(),
      hint: z.string(),
      encrypted: z.boolean(),
    })
    .optional(),
});
type StoredSettings = z.infer<typeof StoredSettingsSchema>;

/**
 * The chat settings file in the user-data folder. The API key is kept only
 * as the Platform encrypted it (Electron safeStorage); `settings()` — what
 * the renderer sees — carries a hint of it, and only `apiKey()` (used by the
 * host to call the API) decrypts it.
 */
export class SettingsStore {
  private data: StoredSettings = {};
  readonly path: string;

  constructor(
    private readonly platform: Platform,
    dir: string = platform.userDataDir(),
  ) {
    this.path = join(dir, SETTINGS_FILE_NAME);
  }

  async load(): Promise<void> {
    try {
      const parsed = StoredSettingsSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')));
      this.data = parsed.success ? parsed.data : {};
    } catch {
      // Missing or unreadable: start from defaults; the next write creates the file.
      this.data = {};
    }
  }

  settings(): Settings {
    const key = this.data.apiKey;
    return {
      baseUrl: this.data.baseUrl ?? DEFAULT_BASE_URL,
      model: this.data.model ?? DEFAULT_MODEL,
      maxIterations: this.data.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      apiKey: key
        ? { set: true, hint: key.hint, encrypted: key.encrypted }
        : { set: false, encrypted: this.platform.canEncrypt() },
      toolSearch: this.data.toolSearch ?? DEFAULT_TOOL_SEARCH,
      pinnedTools: this.data.pinnedTools ?? [],
    };
  }

  /** Pins a tool (its definition is always sent, never deferred by tool search) or unpins it. */
  async setToolPinned(tool: PinnedTool, pinned: boolean): Promise<Settings> {
    const rest = (this.data.pinnedTools ?? []).filter(
      (t) => t.server !== tool.server || t.tool !== tool.tool,
    );
    this.data = { ...this.data, pinnedTools: pinned ? [...rest, tool] : rest };
    await this.write();
    return this.settings();
  }

  async update(patch: UpdateSettings): Promise<Settings> {
    this.data = {
      ...this.data,
      ...(patch.baseUrl !== undefined ? { baseUrl: patch.baseUrl.replace(/\/+$/, '') } : {}),
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      ...(patch.maxIterations !== undefined ? { maxIterations: patch.maxIterations } : {}),
      ...(patch.toolSearch !== undefined
        ? { toolSearch: { ...(this.data.toolSearch ?? DEFAULT_TOOL_SEARCH), ...patch.toolSearch } }
        : {}),
    };
    await this.write();
    return this.settings();
  }

  async setApiKey(key: string): Promise<Settings> {
    const stored = await this.platform.encryptSecret(key);
    this.data = {
      ...this.data,
      apiKey: { stored, hint: keyHint(key), encrypted: this.platform.canEncrypt() },
    };
    await this.write();
    return this.settings();
  }

  async clearApiKey(): Promise<Settings> {
    const { apiKey: _dropped, ...rest } = this.data;
    this.data = rest;
    await this.write();
    return this.settings();
  }

  /** The key in clear, for the API client only; undefined when none is set. */
  async apiKey(): Promise<string | undefined> {
    const key = this.data.apiKey;
    return key ? this.platform.decryptSecret(key.stored) : undefined;
  }

  private async write(): Promise<void> {
    const temp = `${this.path}.tmp`;
    await writeFile(temp, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    await rename(temp, this.path);
  }
}

/** "sk-…abcd": enough to recognise a key, not enough to use it. */
export function keyHint(key: string): string {
  const trimmed = key.trim();
  if (trimmed.length <= 8) return '…';
  return `${trimmed.slice(0, 3)}…${trimmed.slice(-4)}`;
}
