import { isStdioConfig } from '../../../shared/model/config.js';
import type { ServerConfig } from '../../../shared/model/config.js';
import type { ServerInput } from '../../../shared/model/server-input.js';
import type { LaunchRequest } from '../platform.js';

/** Keys that describe how a server is reached; everything else in an entry is kept on edit. */
const TRANSPORT_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers']);

/** The stored entry as the edit form shows it. */
export function inputOf(name: string, config: ServerConfig): ServerInput {
  if (isStdioConfig(config)) {
    return {
      transport: 'stdio',
      name,
      command: config.command,
      args: config.args ?? [],
      env: config.env ?? {},
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
    };
  }
  return {
    transport: 'http',
    name,
    url: config.url,
    ...(config.type !== undefined ? { type: config.type } : {}),
    headers: config.headers ?? {},
  };
}

/** The form's values laid over the previous entry, keeping its other keys (disabled, disabledTools, timeouts…). */
export function mergeInput(previous: ServerConfig | undefined, input: ServerInput): ServerConfig {
  const kept = Object.fromEntries(Object.entries(previous ?? {}).filter(([key]) => !TRANSPORT_KEYS.has(key)));
  if (input.transport === 'stdio') {
    const cwd = input.cwd?.trim();
    return {
      ...kept,
      command: input.command,
      args: input.args,
      ...(Object.keys(input.env).length > 0 ? { env: input.env } : {}),
      ...(cwd !== undefined && cwd !== '' ? { cwd } : {}),
    };
  }
  return {
    ...kept,
    ...(input.type !== undefined ? { type: input.type } : {}),
    url: input.url,
    ...(Object.keys(input.headers).length > 0 ? { headers: input.headers } : {}),
  };
}

/** What the launch confirmation shows for a stdio entry (env names only). */
export function launchOf(name: string, config: ServerConfig): LaunchRequest | undefined {
  if (!isStdioConfig(config)) return undefined;
  return {
    name,
    command: config.command,
    args: config.args ?? [],
    cwd: config.cwd,
    envNames: Object.keys(config.env ?? {}),
  };
}

/**
 * Whether `next` launches something the person has not approved yet: a new
 * stdio server, or a different command, arguments, folder or set of env names.
 */
export function needsLaunchConsent(previous: ServerConfig | undefined, next: ServerConfig): boolean {
  const after = launchOf('', next);
  if (!after) return false;
  const before = previous ? launchOf('', previous) : undefined;
  if (!before) return true;
  return JSON.stringify(before) !== JSON.stringify(after);
}

/** A copy of the entry without one key. */
export function withoutKey(config: ServerConfig, key: string): ServerConfig {
  return Object.fromEntries(Object.entries(config).filter(([k]) => k !== key)) as ServerConfig;
}
