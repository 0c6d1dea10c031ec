import { z } from 'zod';
import type { InstallField } from '../../../shared/model/registry.js';
import { codePointLabel, hasInvisible, splitInvisible } from '../../../shared/text/invisible.js';
import { HostError } from '../errors.js';
import type { KeyedValue, Recipe, Template } from './install-recipe.js';
import { refusedEnvMessage, refusedEnvReason } from './outsider-env.js';
import { judgeOptions, leadingOptions } from './registry/launcher-options.js';
import type { Launcher } from './registry/launcher-options.js';

/**
 * Install links: `mcp-host://install?…`, the app's protocol in Electron and
 * the argument of `mcp-host install --link` in the terminal. A link never
 * installs anything by itself: it becomes a pending install that the person
 * sees (the exact command or URL) and confirms. Two forms:
 *
 *   mcp-host://install?name=<name>&config=<base64url of one server entry>
 *   mcp-host://install?registry=<registry name>[&version=<version>]
 *
 * The entry is `{ command, args?, env? }` or `{ url, type?, headers? }`,
 * plus `inputs: [{ id, description?, password? }]` whose `${input:id}`
 * placeholders (in args, env values, the URL or header values) are asked for;
 * a password input is stored encrypted. Everything a link carries is
 * checked as hostile: its size, the encoding, unknown keys, values that
 * would read the person's own variables or secrets, hidden characters.
 */

export const LINK_SCHEME = 'mcp-host:';
export const MAX_LINK_CHARS = 16 * 1024;
const MAX_CONFIG_CHARS = 8 * 1024;

const LinkInputSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'an input id is letters, digits, _ . -'),
    description: z.string().max(500).optional(),
    password: z.boolean().optional(),
  })
  .strict();

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const StdioLinkSchema = z
  .object({
    command: z.string().trim().min(1).max(1024),
    args: z.array(z.string().max(4096)).max(64).optional(),
    env: z
      .record(z.string().regex(ENV_NAME, 'not a variable name').max(128), z.string().max(4096))
      .optional(),
    inputs: z.array(LinkInputSchema).max(32).optional(),
  })
  .strict();

const RemoteLinkSchema = z
  .object({
    url: z.string().trim().min(1).max(4096),
    type: z.enum(['http', 'streamable-http', 'sse']).optional(),
    headers: z
      .record(z.string().regex(HEADER_NAME, 'not a header name').max(128), z.string().max(4096))
      .optional(),
    inputs: z.array(LinkInputSchema).max(32).optional(),
  })
  .strict();

const LinkParamsSchema = z
  .object({
    name: z.string().max(200).optional(),
    config: z.string().max(MAX_LINK_CHARS).optional(),
    registry: z.string().min(1).max(200).optional(),
    version: z.string().min(1).max(255).optional(),
  })
  .strict();

export type ParsedLink =
  | {
      kind: 'config';
      /** The link's name for the server (before a free name is chosen). */
      name: string;
      recipe: Recipe;
      /** One line each: what the person should look at twice. */
      warnings: string[];
    }
  | { kind: 'registry'; registryName: string; version: string; name?: string | undefined };

/** Launchers that fetch and run a named package: the ordinary shape of an install link. */
const PACKAGE_LAUNCHERS = new Set(['npx', 'uvx', 'docker', 'bunx', 'pipx']);
/** Programs that run whatever text they are given. */
const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'fish',
  'dash',
  'ksh',
  'csh',
  'cmd',
  'cmd.exe',
  'powershell',
  'pwsh',
]);

/** Parses and checks a link; throws one HostError line saying what is wrong with it. */
export function parseInstallLink(link: string): ParsedLink {
  if (link.length > MAX_LINK_CHARS) {
    throw bad(`it is ${String(Math.round(link.length / 1024))} KB long; a link may be at most 16 KB`);
  }
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    throw bad('it is not a URL');
  }
  if (
    url.protocol !== LINK_SCHEME ||
    url.hostname !== 'install' ||
    (url.pathname !== '' && url.pathname !== '/')
  ) {
    throw bad('it must start with mcp-host://install?');
  }
  const raw: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key in raw) throw bad(`"${key}" appears twice`);
    raw[key] = value;
  }
  const params = LinkParamsSchema.safeParse(raw);
  if (!params.success) throw bad(issueText(params.error));
  const { name, config, registry, version } = params.data;
  if (registry !== undefined) {
    if (config !== undefined) throw bad('it has both "config" and "registry"; give one');
    if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(registry))
      throw bad(`"${registry}" is not a registry name`);
    return { kind: 'registry', registryName: registry, version: version ?? 'latest', name };
  }
  if (config === undefined) throw bad('it has neither "config" nor "registry"');
  if (version !== undefined) throw bad('"version" goes with "registry" only');
  return { kind: 'config', ...configRecipe(decodeConfig(config), name) };
}

/** The first `mcp-host://` argument of a command line (Windows and Linux pass links to a second instance this way). */
export function linkFromArgv(argv: readonly string[]): string | undefined {
  return argv.find((arg) => arg.toLowerCase().startsWith('mcp-host://'));
}

/** Builds a link for one server entry (documentation, tests, a "share" button). */
export function makeInstallLink(name: string, entry: object): string {
  const config = Buffer.from(JSON.stringify(entry), 'utf8').toString('base64url');
  return `mcp-host://install?name=${encodeURIComponent(name)}&config=${config}`;
}

function decodeConfig(text: string): unknown {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) throw bad('"config" is not base64url');
  const json = Buffer.from(text, 'base64url').toString('utf8');
  if (json.length > MAX_CONFIG_CHARS) throw bad('its entry is larger than 8 KB');
  if (json.includes('\uFFFD')) throw bad('"config" is not UTF-8 text');
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw bad('"config" does not decode to JSON');
  }
}

function configRecipe(
  value: unknown,
  linkName: string | undefined,
): { name: string; recipe: Recipe; warnings: string[] } {
  const isRemote = typeof value === 'object' && value !== null && 'url' in value;
  const parsed = (isRemote ? RemoteLinkSchema : StdioLinkSchema).safeParse(value);
  if (!parsed.success) throw bad(issueText(parsed.error));
  const entry = parsed.data;
  const fields: InstallField[] = (entry.inputs ?? []).map((input) => ({
    id: input.id,
    label: input.id,
    ...(input.description !== undefined ? { description: input.description } : {}),
    target: 'argument',
    secret: input.password === true,
    required: true,
    format: 'string',
  }));
  const used = new Set<string>();
  const template = (text: string, where: string, target: InstallField['target']): Template => {
    if (/\$\{(env|secret):/.test(text)) {
      throw bad(`${where} would read your own environment variables or stored secrets`);
    }
    const pieces: ({ text: string } | { field: string })[] = [];
    let last = 0;
    for (const match of text.matchAll(/\$\{input:([^}]*)\}/g)) {
      const id = match[1] ?? '';
      const input = fields.find((f) => f.id === id);
      if (!input) throw bad(`${where} uses \${input:${id}}, which "inputs" does not declare`);
      if (target === 'url' && input.secret)
        throw bad(`${where} puts a password input in the URL; use a header`);
      // A value lands where it is first used; the form says where.
      if (!used.has(id)) Object.assign(input, { target });
      used.add(id);
      if (match.index > last) pieces.push({ text: text.slice(last, match.index) });
      pieces.push({ field: id });
      last = match.index + match[0].length;
    }
    if (last < text.length) pieces.push({ text: text.slice(last) });
    return pieces;
  };
  const warnings: string[] = [];

  if ('url' in entry) {
    const url = template(entry.url, 'Its URL', 'url');
    const sample = url.map((p) => ('text' in p ? p.text : 'x')).join('');
    if (!/^https?:\/\/[^\s]+$/.test(sample)) throw bad('its URL is not an http(s) URL');
    if (hasInvisible(sample)) throw bad(`its URL holds hidden characters (${hiddenIn(sample)})`);
    const headers: KeyedValue[] = Object.entries(entry.headers ?? {}).map(([key, text]) => {
      if (/[\r\n]/.test(text)) throw bad(`header ${key} holds a line break`);
      return { name: key, value: template(text, `Header ${key}`, 'header'), required: true };
    });
    if (sample.startsWith('http:'))
      warnings.push('This server is reached over plain http: what is sent can be read on the way');
    const transport = entry.type === 'sse' ? 'sse' : 'streamable-http';
    return {
      name: linkName ?? hostName(sample),
      recipe: { kind: 'remote', url, transport, headers, fields: unusedDropped(fields, used) },
      warnings,
    };
  }

  const command = entry.command;
  for (const [where, text] of [
    ['Its command', command],
    ...(entry.args ?? []).map((a, i) => [`Argument ${String(i + 1)}`, a]),
  ] as const) {
    if (hasInvisible(text))
      throw bad(`${where} holds hidden characters (${hiddenIn(text)}) that change how it reads`);
    if (text.includes('\0')) throw bad(`${where} holds a NUL character`);
  }
  if (/\$\{input:/.test(command)) throw bad('its command cannot be an input');
  const env = Object.entries(entry.env ?? {}).map(([key, text]): KeyedValue => {
    const why = refusedEnvReason(key);
    if (why !== undefined) throw bad(refusedEnvMessage(key, why));
    return { name: key, value: template(text, `Variable ${key}`, 'env'), required: true };
  });
  const args = (entry.args ?? []).map((arg, i) => ({
    tokens: [template(arg, `Argument ${String(i + 1)}`, 'argument')],
    required: true,
  }));
  const base =
    command
      .split(/[\\/]/)
      .pop()
      ?.toLowerCase()
      .replace(/\.exe$/, '') ?? command;
  let launcherOptions: { launcher: Launcher; identifier: string; from: number; to: number } | undefined;
  if (isLauncher(base)) {
    const span = leadingOptions(base, entry.args ?? []);
    if (span !== undefined) {
      const verdict = judgeOptions(base, (entry.args ?? []).slice(span.from, span.to), span.identifier);
      if (verdict.refused !== undefined) throw bad(lowerFirst(verdict.refused));
      if (verdict.shown.length > 0)
        warnings.push(
          `This link adds options to ${base}: ${verdict.shown.join(' ')}. Read them before installing: they run before the package does`,
        );
      launcherOptions = { launcher: base, ...span };
    }
  }
  if (SHELLS.has(base)) {
    warnings.push(
      `This link runs a shell (${base}), which can do anything your account can: install it only if you wrote it or trust who did`,
    );
  } else if (!PACKAGE_LAUNCHERS.has(base)) {
    warnings.push(
      `This link runs "${command}", not a package launcher such as npx, uvx or docker: check it is the program you expect`,
    );
  }
  return {
    name: linkName ?? packageName(entry.args ?? []) ?? base,
    recipe: {
      kind: 'stdio',
      command,
      args,
      env,
      fields: unusedDropped(fields, used),
      ...(launcherOptions !== undefined ? { launcherOptions } : {}),
    },
    warnings,
  };
}

function isLauncher(base: string): base is Launcher {
  return base === 'npx' || base === 'uvx' || base === 'docker';
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Declared inputs nobody uses are not asked for. */
function unusedDropped(fields: InstallField[], used: ReadonlySet<string>): InstallField[] {
  return fields.filter((f) => used.has(f.id));
}

/** "server-memory" from `-y @modelcontextprotocol/server-memory@1.0.0`. */
function packageName(args: readonly string[]): string | undefined {
  const pkg = args.find((a) => !a.startsWith('-'));
  if (pkg === undefined) return undefined;
  return pkg
    .replace(/@[^@/]*$/, '')
    .replace(/==.*$/, '')
    .split('/')
    .pop();
}

function hostName(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'remote';
  }
}

function hiddenIn(text: string): string {
  return [
    ...new Set(
      splitInvisible(text)
        .filter((p) => p.invisible)
        .map((p) => codePointLabel(p.text)),
    ),
  ].join(', ');
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it is invalid';
  if (issue.code === 'unrecognized_keys') return `it has unknown fields: ${issue.keys.join(', ')}`;
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue.message}`;
}

function bad(why: string): HostError {
  return new HostError('invalid_params', `This install link cannot be used: ${why}`);
}
