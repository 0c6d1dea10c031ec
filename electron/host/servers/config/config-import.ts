import { join } from 'node:path';
import { z } from 'zod';
import {
  ServerConfigSchema,
  blockedEnvMessage,
  blockedEnvNames,
  byTransport,
  isStdioConfig,
} from '../../../../shared/model/config.js';
import type { ServerConfig } from '../../../../shared/model/config.js';
import type {
  ImportInput,
  ImportLocation,
  ImportServerPreview,
  ImportSource,
} from '../../../../shared/model/import.js';
import { HostError } from '../../errors.js';
import { envReferences } from './env-references.js';
import { isJsonObject } from '../../json-object.js';

/**
 * Parsers for other hosts' MCP configuration files: Claude Desktop
 * (`claude_desktop_config.json`, `mcpServers`), Cursor (`mcp.json`,
 * `mcpServers`) and VS Code (`mcp.json`, `servers` plus `inputs` whose values
 * `${input:id}` placeholders refer to). Pure: reading the file is the
 * caller's job, and every entry goes through our own config schema.
 */

/** One server found in a file: its entry as our config, or why it cannot be imported. */
export interface FoundServer {
  name: string;
  config: ServerConfig | undefined;
  problem: string | undefined;
  /** The ${input:id} ids its strings use. */
  inputIds: string[];
}

export interface ParsedImport {
  servers: FoundServer[];
  inputs: ImportInput[];
}

const INPUT_REF = /\$\{input:([^}]+)\}/g;

const VsCodeInputSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  description: z.string().optional(),
  password: z.boolean().optional(),
  default: z.string().optional(),
});

/** Parses a file's text as the given source; "pasted" accepts either shape. */
export function parseImportText(source: ImportSource, text: string): ParsedImport {
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    throw new HostError('invalid_json', `The ${SOURCE_LABELS[source]} text is not valid JSON: ${reason}`);
  }
  if (!isJsonObject(json)) throw new HostError('invalid_json', 'Expected a JSON object');
  const table = serverTable(source, json);
  if (!table) {
    const expected =
      source === 'vscode' ? '"servers"' : source === 'pasted' ? '"mcpServers" or "servers"' : '"mcpServers"';
    throw new HostError('invalid_json', `No ${expected} object found in the ${SOURCE_LABELS[source]} text`);
  }
  const inputs = Array.isArray(json.inputs)
    ? json.inputs.flatMap((raw) => {
        const parsed = VsCodeInputSchema.safeParse(raw);
        if (!parsed.success) return [];
        const { id, description, password, default: fallback } = parsed.data;
        return [
          {
            id,
            password: password === true,
            ...(description !== undefined ? { description } : {}),
            ...(fallback !== undefined ? { default: fallback } : {}),
          },
        ];
      })
    : [];
  const servers = Object.entries(table).map(([name, raw]) => toFoundServer(name, raw));
  return { servers, inputs };
}

function serverTable(
  source: ImportSource,
  json: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const mcp = isJsonObject(json.mcp) ? json.mcp.servers : undefined;
  const candidates =
    source === 'vscode'
      ? [json.servers, mcp]
      : source === 'pasted'
        ? [json.mcpServers, json.servers, mcp]
        : [json.mcpServers];
  return candidates.find(isJsonObject);
}

function toFoundServer(name: string, raw: unknown): FoundServer {
  const inputIds = [
    ...new Set(stringsIn(raw).flatMap((s) => [...s.matchAll(INPUT_REF)].map((m) => m[1] ?? ''))),
  ];
  const parsed = ServerConfigSchema.safeParse(normalizeEntry(raw));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return { name, config: undefined, problem: `${where}${issue?.message ?? 'invalid entry'}`, inputIds };
  }
  // The same rule as the add form: nothing imported may set variables that hijack loading.
  const blocked = isStdioConfig(parsed.data) ? blockedEnvNames(parsed.data.env) : [];
  if (blocked.length > 0) {
    return { name, config: undefined, problem: `env: ${blockedEnvMessage(blocked)}`, inputIds };
  }
  return { name, config: parsed.data, problem: undefined, inputIds };
}

/** VS Code and Cursor spell a few things differently; keep the entry otherwise as it was. */
function normalizeEntry(raw: unknown): unknown {
  if (!isJsonObject(raw)) return raw;
  const entry = { ...raw };
  // Cursor and VS Code write "type": "streamable-http"/"http"/"sse"; a stdio entry may say "stdio".
  if (typeof entry.url === 'string' && entry.type === undefined && typeof entry.transport === 'string') {
    entry.type = entry.transport;
    delete entry.transport;
  }
  return entry;
}

/**
 * Preview rows: what runs or is reached, the names (never values) of env and
 * headers, and for a remote entry the variables of this machine it sends there.
 */
export function previewServers(
  found: readonly FoundServer[],
  existing: ReadonlySet<string>,
): ImportServerPreview[] {
  return found.map((server) => {
    const config = server.config;
    const base = {
      name: server.name,
      inputIds: server.inputIds,
      conflict: existing.has(server.name),
      ...(server.problem !== undefined ? { problem: server.problem } : {}),
    };
    if (!config)
      return { ...base, transport: 'stdio', target: '', envNames: [], headerNames: [], sentVariables: [] };
    return byTransport<ImportServerPreview>(config, {
      stdio: (config) => ({
        ...base,
        transport: 'stdio',
        target: [config.command, ...(config.args ?? [])].join(' '),
        envNames: Object.keys(config.env ?? {}),
        headerNames: [],
        sentVariables: [],
      }),
      http: (config) => ({
        ...base,
        transport: 'http',
        target: config.url,
        envNames: [],
        headerNames: Object.keys(config.headers ?? {}),
        sentVariables: [
          ...new Set([config.url, ...Object.values(config.headers ?? {})].flatMap(envReferences)),
        ],
      }),
    });
  });
}

/**
 * Replaces every ${input:id} in the entry's strings with the value the person
 * gave. A missing value is an error naming the input, so nothing half-filled
 * is ever written.
 */
export function substituteInputs(
  config: ServerConfig,
  values: Readonly<Record<string, string>>,
): ServerConfig {
  const missing = new Set<string>();
  const replace = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return value.replace(INPUT_REF, (_, id: string) => {
        const given = values[id];
        if (given === undefined) {
          missing.add(id);
          return '';
        }
        return given;
      });
    }
    if (Array.isArray(value)) return value.map(replace);
    if (isJsonObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]));
    }
    return value;
  };
  const replaced = replace(config);
  if (missing.size > 0) {
    throw new HostError('invalid_params', `A value is needed for: ${[...missing].join(', ')}`);
  }
  const parsed = ServerConfigSchema.safeParse(replaced);
  if (!parsed.success)
    throw new HostError('invalid_params', parsed.error.issues[0]?.message ?? 'invalid entry');
  return parsed.data;
}

export const SOURCE_LABELS: Readonly<Record<ImportSource, string>> = {
  'claude-desktop': 'Claude Desktop',
  vscode: 'VS Code',
  cursor: 'Cursor',
  pasted: 'pasted',
};

export interface LocationContext {
  platform: NodeJS.Platform;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** The per-OS files the host looks in. The renderer never names a path. */
export function importLocations(ctx: LocationContext): Omit<ImportLocation, 'found'>[] {
  const { platform, home, env } = ctx;
  const appData =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  return [
    {
      source: 'claude-desktop',
      label: SOURCE_LABELS['claude-desktop'],
      path: join(appData, 'Claude', 'claude_desktop_config.json'),
    },
    { source: 'vscode', label: SOURCE_LABELS.vscode, path: join(appData, 'Code', 'User', 'mcp.json') },
    { source: 'cursor', label: SOURCE_LABELS.cursor, path: join(home, '.cursor', 'mcp.json') },
  ];
}

/**
 * Removes // and block comments, then trailing commas (VS Code's JSONC),
 * leaving strings untouched.
 */
export function stripJsonComments(text: string): string {
  return dropTrailingCommas(dropComments(text));
}

/** Length of the JSON string literal starting at `from` (a double quote). */
function stringLength(text: string, from: number): number {
  let i = from + 1;
  while (i < text.length && text.charAt(i) !== '"') i += text.charAt(i) === '\\' ? 2 : 1;
  return i + 1 - from;
}

function dropComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    const next = text.charAt(i + 1);
    if (c === '"') {
      const n = stringLength(text, i);
      out += text.slice(i, i + n);
      i += n;
    } else if (c === '/' && next === '/') {
      while (i < text.length && text.charAt(i) !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const CLOSER = /\s*[}\]]/y;

function dropTrailingCommas(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '"') {
      const n = stringLength(text, i);
      out += text.slice(i, i + n);
      i += n;
      continue;
    }
    CLOSER.lastIndex = i + 1;
    if (c !== ',' || !CLOSER.test(text)) out += c;
    i++;
  }
  return out;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isJsonObject(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}
