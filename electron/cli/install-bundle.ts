import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { createHost } from '../host/host.js';
import { NodePlatform } from '../host/node-platform.js';
import type { LaunchRequest } from '../host/platform.js';
import { createLocalClient } from '../host/ipc/local-client.js';
import type { BundleField, BundlePreview, BundleValue } from '../../shared/model/bundle.js';
import type { Result } from '../../shared/ipc/result.js';
import { terminalSafe } from '../../shared/text/invisible.js';
import { CliError, EXIT, errorExitCode } from './exit-codes.js';

/**
 * `mcp-host install <file.mcpb>` and `mcp-host uninstall <server>`: the same
 * preview, settings and launch confirmation as the app, in a terminal.
 * Everything the bundle says is printed inert (terminalSafe). Settings come
 * from `--set key=value` (repeat a key for several paths) or are asked for on
 * a terminal, sensitive ones without echo; without a terminal, required
 * settings must be given and `--yes` stands for the launch confirmation.
 */

export interface BundleCommandOptions {
  config: string | undefined;
  set: readonly string[];
  yes: boolean;
}

/** Whether `install`'s argument is a bundle file (the other kinds of install take other arguments). */
export function isBundleArgument(argument: string | undefined): boolean {
  return argument !== undefined && (/\.(mcpb|dxt)$/i.test(argument) || existsSync(argument));
}

export async function runBundleCommand(
  command: 'install' | 'uninstall',
  args: readonly string[],
  options: BundleCommandOptions,
): Promise<number> {
  const [target, ...extra] = args;
  if (target === undefined || extra.length > 0)
    throw new CliError(
      EXIT.usage,
      command === 'install'
        ? 'Usage: mcp-host install <file.mcpb> [--set key=value]… [--yes]'
        : 'Usage: mcp-host uninstall <server>',
    );
  const interactive = process.stdin.isTTY && process.stdout.isTTY;
  const host = createHost({
    platform: new NodePlatform(undefined, (request) => confirmInTerminal(request, options.yes, interactive)),
    shell: 'headless',
    appVersion: __APP_VERSION__,
    configPath: options.config,
    interactive: false,
  });
  try {
    const state = await host.loadConfig();
    if (state.error !== undefined) throw new CliError(EXIT.usage, state.error);
    const api = createLocalClient(host.handlers);
    if (command === 'uninstall') {
      unwrap(await api.uninstallBundle({ name: target }));
      process.stdout.write(
        `Uninstalled "${terminalSafe(target)}": its files and stored secrets were removed.\n`,
      );
      return EXIT.ok;
    }
    const preview = await host.bundles.previewFile(target).catch((error: unknown) => {
      throw new CliError(EXIT.usage, error instanceof Error ? error.message : String(error));
    });
    process.stdout.write(describePreview(preview));
    const secrets = preview.fields
      .filter((f) => f.sensitive)
      .map((f) => terminalSafe(f.title, { singleLine: true }));
    if (secrets.length > 0) {
      const storage = unwrap(await api.getAppInfo({})).secretStorage?.sentence ?? '';
      process.stdout.write(`  Secret settings: ${secrets.join(', ')}. ${storage}`.trimEnd() + '\n');
    }
    if (preview.blockers.length > 0) {
      await host.bundles.discard(preview.token);
      throw new CliError(EXIT.usage, `Not installed: ${preview.blockers.join(' ')}`);
    }
    const given = parseSets(options.set, preview.fields);
    const values = interactive ? await askSettings(preview.fields, given) : given;
    const snapshot = unwrap(await api.installBundle({ token: preview.token, values }));
    const tools = snapshot.tools.length;
    process.stdout.write(
      `Installed ${terminalSafe(preview.displayName)} ${terminalSafe(preview.version)} as the server "${terminalSafe(snapshot.name)}": ${snapshot.status}${snapshot.status === 'connected' ? ` (${String(tools)} ${tools === 1 ? 'tool' : 'tools'})` : ''}.\n`,
    );
    if (snapshot.status === 'failed')
      throw new CliError(EXIT.connection, snapshot.error ?? 'The server did not start');
    return EXIT.ok;
  } finally {
    await host.dispose();
  }
}

/** The preview as plain lines, every text from the bundle made inert. */
export function describePreview(preview: BundlePreview): string {
  const safe = (text: string) => terminalSafe(text, { singleLine: true });
  const lines = [
    `${safe(preview.displayName)} ${safe(preview.version)} by ${safe(preview.author.name)} (${safe(preview.fileName)})`,
    `  ${safe(preview.description)}`,
    `  Signature: ${signatureLine(preview)}`,
    ...(preview.installed
      ? [
          `  Installed: ${safe(preview.installed.version)} (${preview.installed.relation === 'upgrade' ? 'this is an update' : preview.installed.relation === 'same' ? 'the same version: reinstall' : 'this is an OLDER version'})`,
        ]
      : []),
    `  Server name: ${safe(preview.serverName)}`,
    `  Runs: ${[preview.launch.command, ...preview.launch.args].map(quote).join(' ')}`,
    ...(preview.launch.env.length > 0
      ? ['  Environment:', ...preview.launch.env.map((e) => `    ${safe(`${e.name}=${e.value}`)}`)]
      : []),
    `  Runtime: ${safe(preview.runtime.text)}`,
    `  Platforms: ${preview.platforms.length > 0 ? preview.platforms.map(safe).join(', ') : 'any'}${preview.platformOk ? '' : ' (not this one)'}`,
    `  Tools: ${preview.tools.map((t) => safe(t.name)).join(', ') || 'none declared'}${preview.toolsGenerated ? ' (and more at run time)' : ''}`,
    ...(preview.prompts.length > 0
      ? [`  Prompts: ${preview.prompts.map((p) => safe(p.name)).join(', ')}`]
      : []),
    '  It will be able to:',
    ...preview.permissions.map((p) => `    - ${safe(p.text)}`),
    ...preview.blockers.map((b) => `  ! ${safe(b)}`),
  ];
  return `${lines.join('\n')}\n`;
}

function signatureLine(preview: BundlePreview): string {
  const signature = preview.signature;
  if (signature.state === 'unsigned') return 'not signed';
  if (signature.state === 'invalid')
    return `INVALID: ${terminalSafe(signature.reason, { singleLine: true })}`;
  const trust = signature.trusted ? 'trusted by this computer' : 'NOT trusted by this computer';
  return `signed by ${terminalSafe(signature.publisher, { singleLine: true })}${signature.selfSigned ? ' (self-signed)' : ''}, ${trust}`;
}

function quote(arg: string): string {
  const shown = terminalSafe(arg, { singleLine: true });
  return arg === '' || /[\s"']/.test(arg) ? JSON.stringify(shown) : shown;
}

/** `--set key=value`: typed as the field says; a key given twice is a several-valued setting. */
function parseSets(sets: readonly string[], fields: readonly BundleField[]): Record<string, BundleValue> {
  const values: Record<string, BundleValue> = {};
  for (const set of sets) {
    const at = set.indexOf('=');
    if (at <= 0) throw new CliError(EXIT.usage, `--set takes key=value, not "${set}"`);
    const key = set.slice(0, at);
    const field = fields.find((f) => f.key === key);
    if (!field)
      throw new CliError(
        EXIT.usage,
        `The bundle has no setting "${key}" (it has: ${fields.map((f) => f.key).join(', ')})`,
      );
    const text = set.slice(at + 1);
    const previous = values[key];
    values[key] = field.multiple ? [...(Array.isArray(previous) ? previous : []), text] : typed(field, text);
  }
  return values;
}

function typed(field: BundleField, text: string): BundleValue {
  if (field.type === 'number') return Number(text);
  if (field.type === 'boolean') return /^(true|yes|on|1)$/i.test(text.trim());
  return text;
}

/** Asks for each setting not given with --set; Enter keeps the current value, the stored secret or the default. */
async function askSettings(
  fields: readonly BundleField[],
  given: Record<string, BundleValue>,
): Promise<Record<string, BundleValue>> {
  const values = { ...given };
  for (const field of fields) {
    if (field.key in values) continue;
    const kept = field.current ?? field.default;
    const hint =
      field.stored === true
        ? 'Enter keeps the stored value'
        : kept !== undefined
          ? `Enter: ${String(kept)}`
          : field.required
            ? 'required'
            : 'optional';
    const label = `${terminalSafe(field.title, { singleLine: true })}${field.added === true ? ' (new)' : ''} [${hint}]: `;
    const description = terminalSafe(field.description, { singleLine: true });
    if (description !== '') process.stdout.write(`  ${description}\n`);
    const answer = field.sensitive ? await askHidden(label) : await askLine(label);
    if (answer.trim() !== '')
      values[field.key] = field.multiple
        ? answer.split(',').map((p) => p.trim())
        : typed(field, answer.trim());
  }
  return values;
}

async function askLine(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** Reads a line without echoing it (a secret): raw mode, Backspace works, Ctrl+C cancels. */
function askHidden(question: string): Promise<string> {
  process.stdout.write(question);
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stdout.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          done();
          return;
        }
        if (char === '\u0003') {
          done(new CliError(EXIT.usage, 'Cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    };
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}

/** The launch confirmation in a terminal: the exact command line, then y/N (or --yes). */
async function confirmInTerminal(
  request: LaunchRequest,
  yes: boolean,
  interactive: boolean,
): Promise<boolean> {
  if (request.kind !== 'stdio') return yes;
  const line = [request.command, ...request.args].map(quote).join(' ');
  process.stdout.write(
    `\nAllow "${terminalSafe(request.name)}" to run this program on your computer?\n  ${line}\n`,
  );
  if (request.env.length > 0)
    process.stdout.write(
      `  Environment variables:\n${request.env
        .map((e) => `    ${terminalSafe(`${e.name}=${e.value}`, { singleLine: true })}\n`)
        .join('')}`,
    );
  if (yes) {
    process.stdout.write('  Allowed by --yes.\n');
    return true;
  }
  if (!interactive) {
    process.stdout.write('  Not allowed: there is no terminal to ask; run again with --yes to allow it.\n');
    return false;
  }
  return /^y(es)?$/i.test((await askLine('Allow and start? [y/N] ')).trim());
}

function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new CliError(errorExitCode(result.error.code), result.error.message);
}
