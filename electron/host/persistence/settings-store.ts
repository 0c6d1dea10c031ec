import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_MODEL,
  DEFAULT_REGISTRY_URL,
  DEFAULT_TOOL_SEARCH,
  PinnedToolSchema,
  ToolSearchSettingsSchema,
  originOf,
} from '../../../shared/model/settings.js';
import { HostError } from '../errors.js';
import { SerialQueue, tempPathFor } from '../serial-queue.js';
import type { PinnedTool, Settings, UpdateSettings } from '../../../shared/model/settings.js';
import type { Platform } from '../platform.js';

export const SETTINGS_FILE_NAME = 'chat-settings.json';

const StoredSettingsSchema = z.looseObject({
  baseUrl: z.string().optional(),
  model: z.string().optional(),
  maxIterations: z.number().int().min(1).max(200).optional(),
  toolSearch: ToolSearchSettingsSchema.optional(),
  pinnedTools: z.array(PinnedToolSchema).max(10_000).optional(),
  registryUrl: z.string().max(2048).optional(),
  apiKey: z
    .object({
      /** Output of platform.encryptSecret; never the key in clear. */
      stored: z.string(),
      hint: z.string(),
      encrypted: z.boolean(),
      storage: z.enum(['os-keychain', 'encrypted', 'obfuscated-file']).optional(),
      /**
       * The origin of the base URL the key was entered (or allowed) for; the
       * key is never sent anywhere else. Absent in files written before this
       * was kept: such a key belongs to the base URL saved with it.
       */
      origin: z.string().optional(),
    })
    .optional(),
});
type StoredSettings = z.infer<typeof StoredSettingsSchema>;
type StoredKey = NonNullable<StoredSettings['apiKey']>;

/**
 * The chat settings file in the user-data folder. The API key is kept only
 * as the Platform encrypted it (Electron safeStorage); `settings()` — what
 * the renderer sees — carries a hint of it, and only `apiKey()` (used by the
 * host to call the API) decrypts it.
 */
export class SettingsStore {
  private data: StoredSettings = {};
  private readonly writes = new SerialQueue();
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
    const baseUrl = this.baseUrl();
    const heldFor = key && !this.keyFits() ? this.keyOrigin() : undefined;
    return {
      baseUrl,
      model: this.data.model ?? DEFAULT_MODEL,
      maxIterations: this.data.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      apiKey: key
        ? {
            set: heldFor === undefined,
            hint: key.hint,
            encrypted: key.encrypted,
            storage: key.storage ?? (key.encrypted ? 'encrypted' : 'obfuscated-file'),
            ...(heldFor ? { heldFor } : {}),
          }
        : { set: false, encrypted: this.platform.canEncrypt(), storage: this.platform.secretStorage() },
      toolSearch: this.data.toolSearch ?? DEFAULT_TOOL_SEARCH,
      pinnedTools: this.data.pinnedTools ?? [],
      registryUrl: this.registryUrl(),
    };
  }

  /** Pins a tool (its definition is always sent, never deferred by tool search) or unpins it. */
  setToolPinned(tool: PinnedTool, pinned: boolean): Promise<Settings> {
    return this.change(() => {
      const rest = (this.data.pinnedTools ?? []).filter(
        (t) => t.server !== tool.server || t.tool !== tool.tool,
      );
      this.data = { ...this.data, pinnedTools: pinned ? [...rest, tool] : rest };
      return undefined;
    });
  }

  /**
   * Changes the base URL, model, loop limit or tool search. The key stays
   * bound to the host it was entered for: a base URL on another host gets it
   * only with `allowKeyFor` naming that host's origin (or after the key is
   * entered again).
   */
  update(patch: UpdateSettings): Promise<Settings> {
    return this.change(() => {
      this.apply(patch);
      return undefined;
    });
  }

  private apply(patch: UpdateSettings): void {
    const key = this.data.apiKey;
    // The key's host is pinned before the base URL moves (files from before the pin had none).
    const pinned = key ? { ...key, origin: this.keyOrigin() } : undefined;
    const baseUrl = patch.baseUrl !== undefined ? patch.baseUrl.replace(/\/+$/, '') : this.baseUrl();
    let apiKey = pinned;
    if (patch.allowKeyFor !== undefined) {
      if (!pinned) throw new HostError('conflict', 'There is no saved key to allow; enter one instead');
      if (patch.allowKeyFor !== originOf(baseUrl)) {
        throw new HostError(
          'invalid_params',
          `The key can only be allowed for the base URL's own host (${originOf(baseUrl)}), not ${patch.allowKeyFor}`,
        );
      }
      apiKey = { ...pinned, origin: patch.allowKeyFor };
    }
    this.data = {
      ...this.data,
      ...(patch.baseUrl !== undefined ? { baseUrl } : {}),
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      ...(patch.maxIterations !== undefined ? { maxIterations: patch.maxIterations } : {}),
      ...(patch.registryUrl !== undefined ? { registryUrl: patch.registryUrl.replace(/\/+$/, '') } : {}),
      ...(patch.toolSearch !== undefined
        ? { toolSearch: { ...(this.data.toolSearch ?? DEFAULT_TOOL_SEARCH), ...patch.toolSearch } }
        : {}),
      ...(apiKey ? { apiKey } : {}),
    };
  }

  /** Saves a key for the current base URL's host (and only that host). */
  setApiKey(key: string): Promise<Settings> {
    return this.change(async () => {
      const stored = await this.platform.encryptSecret(key);
      const previous = this.data.apiKey;
      this.data = {
        ...this.data,
        apiKey: {
          stored,
          hint: keyHint(key),
          encrypted: this.platform.canEncrypt(),
          storage: this.platform.secretStorage(),
          origin: originOf(this.baseUrl()),
        },
      };
      return previous;
    });
  }

  clearApiKey(): Promise<Settings> {
    return this.change(() => {
      const { apiKey: dropped, ...rest } = this.data;
      this.data = rest;
      return dropped;
    });
  }

  /**
   * One change at a time, each on the result of the one before, then written
   * (to a temp file of its own, renamed into place): two changes at once
   * both land. A key the change replaced is forgotten once the file no
   * longer refers to it.
   */
  private change(mutate: () => Promise<StoredKey | undefined> | StoredKey | undefined): Promise<Settings> {
    return this.writes.run(async () => {
      const replaced = await mutate();
      const temp = tempPathFor(this.path);
      await writeFile(temp, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, this.path);
      if (replaced) await this.platform.forgetSecret(replaced.stored);
      return this.settings();
    });
  }

  /**
   * The key in clear, for the API client only, and only when it belongs to
   * the current base URL's host; undefined otherwise.
   */
  async apiKey(): Promise<string | undefined> {
    const key = this.data.apiKey;
    return key && this.keyFits() ? this.platform.decryptSecret(key.stored) : undefined;
  }

  /** The MCP registry the Browse view and `?registry=` install links use. */
  registryUrl(): string {
    return this.data.registryUrl ?? DEFAULT_REGISTRY_URL;
  }

  private baseUrl(): string {
    return this.data.baseUrl ?? DEFAULT_BASE_URL;
  }

  private keyOrigin(): string {
    return this.data.apiKey?.origin ?? originOf(this.baseUrl());
  }

  /** Whether the saved key may be sent to the current base URL. */
  private keyFits(): boolean {
    return this.keyOrigin() === originOf(this.baseUrl());
  }
}

/** "sk-…abcd": enough to recognise a key, not enough to use it. */
export function keyHint(key: string): string {
  const trimmed = key.trim();
  if (trimmed.length <= 8) return '…';
  return `${trimmed.slice(0, 3)}…${trimmed.slice(-4)}`;
}
