import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { Result } from '../../shared/ipc/result.js';
import type { InstallField, InstallOption, NamedValue, PendingInstall } from '../../shared/model/registry.js';
import { commandLineText } from '../../shared/text/command-line.js';
import { terminalSafe } from '../../shared/text/invisible.js';
import {
  ChallengeAnswerSchema,
  CLI_CHALLENGE_PATH,
  INSTALL_LINK_PATH,
} from '../headless/install-link-endpoint.js';
import { cliRequestMac, newNonce, sameText, shellProof } from '../headless/proofs.js';
import { SessionFile } from '../headless/session-file.js';
import { describeError } from '../host/errors.js';
import type { Host } from '../host/host-types.js';
import { parseInstallLink } from '../host/install/install-links.js';
import { CliError, EXIT, errorExitCode } from './exit-codes.js';

export interface InstallLinkOptions {
  link: string;
  /** The person confirms on the command line (the only way without a terminal to ask in). */
  yes: boolean;
  /** `ID=VALUE` for the values the install asks for. */
  values: readonly string[];
  /** The server's name, instead of the one suggested. */
  name: string | undefined;
  dataDir: string;
  /** Builds the host only when the terminal path needs one. */
  createHost: () => { host: Host; api: HostRequests };
}

const out = (text: string) => process.stdout.write(`${terminalSafe(text)}\n`);

/**
 * `mcp-host install --link '<mcp-host://install?…>'`. When a headless shell
 * runs on this data folder, the link goes to it and its page shows the
 * confirmation. Otherwise the terminal shows the exact command or URL and
 * installs only after an explicit yes: typed at a prompt, or `--yes` given
 * with the command. Without a terminal and without `--yes` nothing is
 * installed.
 */
export async function installLink(options: InstallLinkOptions): Promise<number> {
  // Checked here first: a bad link is one line, whichever way it would go.
  try {
    parseInstallLink(options.link);
  } catch (error) {
    throw new CliError(EXIT.usage, describeError(error));
  }
  const delivered = await deliverToShell(options.link, options.dataDir);
  if (delivered !== undefined) {
    out(`Sent to the running MCP Host (${delivered}). Confirm the install in its page.`);
    return EXIT.ok;
  }
  const { host, api } = options.createHost();
  try {
    const state = await host.loadConfig();
    if (state.error !== undefined) throw new CliError(EXIT.usage, state.error);
    const pending = await host.installs.receiveLink(options.link).catch((error: unknown) => {
      throw new CliError(EXIT.usage, describeError(error));
    });
    return await confirmInTerminal(api, pending, options);
  } finally {
    await host.dispose();
  }
}

/**
 * Hands the link to a headless shell of this data folder, if one answers;
 * returns its address, or undefined when none runs (or it refused us).
 * Whatever listens on the remembered port must first prove it holds the
 * token (an HMAC over our fresh nonce); the token itself is never sent, and
 * nothing but that nonce goes to a listener that cannot prove it.
 */
async function deliverToShell(link: string, dataDir: string): Promise<string | undefined> {
  const session = new SessionFile(dataDir).peek();
  if (session?.port === undefined) return undefined;
  const address = `http://127.0.0.1:${String(session.port)}`;
  const post = (path: string, body: unknown) =>
    fetch(`${address}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(5000),
    });
  let shellNonce: string;
  try {
    const ours = newNonce();
    const response = await post(CLI_CHALLENGE_PATH, { nonce: ours });
    const answer = ChallengeAnswerSchema.safeParse(await response.json().catch(() => null));
    if (
      !response.ok ||
      !answer.success ||
      !sameText(shellProof(session.token, ours, answer.data.nonce), answer.data.proof)
    ) {
      process.stderr.write(
        `warning: something else listens on ${address} and could not prove it is this MCP Host; nothing was sent to it.\n`,
      );
      return undefined;
    }
    shellNonce = answer.data.nonce;
  } catch {
    // Nothing listens there (the shell is not running): confirm here instead.
    return undefined;
  }
  try {
    const response = await post(INSTALL_LINK_PATH, {
      link,
      nonce: shellNonce,
      mac: cliRequestMac(session.token, shellNonce, link),
    });
    if (response.status === 400) {
      const body = (await response.json().catch(() => ({}))) as { error?: unknown };
      throw new CliError(
        EXIT.usage,
        typeof body.error === 'string' ? body.error : 'The running app refused the link',
      );
    }
    return response.ok ? address : undefined;
  } catch (error) {
    if (error instanceof CliError) throw error;
    return undefined;
  }
}

async function confirmInTerminal(
  api: HostRequests,
  pending: PendingInstall,
  options: InstallLinkOptions,
): Promise<number> {
  const tty = process.stdin.isTTY && process.stdout.isTTY;
  out(
    `Install from ${pending.origin}: ${pending.title ?? pending.entryName}${pending.version !== undefined ? ` ${pending.version}` : ''}`,
  );
  if (pending.description !== undefined && pending.description !== '') out(`  ${pending.description}`);
  for (const warning of pending.warnings) out(`  Warning: ${warning}`);
  const option = pending.options.find((o) => o.problem === undefined);
  if (!option) {
    for (const o of pending.options) out(`  ${o.label}: ${o.problem ?? ''}`);
    await api.dismissInstall({ id: pending.id });
    throw new CliError(EXIT.usage, 'Nothing of this entry can be installed on this machine');
  }
  const name = options.name ?? pending.suggestedName;
  const values = await collectValues(option, options.values, tty);
  const request = { id: pending.id, option: option.index, name, values };
  const preview = unwrap(await api.previewInstall(request));
  out(`  Server name: ${name}`);
  for (const warning of option.warnings ?? []) out(`  Warning: ${warning}`);
  // Each value on a line of its own, its line breaks shown as ^J: the terminal shows what is set.
  const showValues = (title: string, entries: readonly NamedValue[], separator: string) => {
    out(`  ${title}:${entries.length === 0 ? ' none' : ''}`);
    for (const e of entries)
      out(`    ${terminalSafe(`${e.name}${separator}${e.value}`, { singleLine: true })}`);
  };
  if (preview.launch.kind === 'stdio') {
    out(`  Command: ${commandLineText(preview.launch.command, preview.launch.args)}`);
    showValues('Environment variables', preview.launch.env, '=');
  } else {
    out(`  URL: ${preview.launch.url} (${preview.launch.transport})`);
    showValues('Headers', preview.launch.headers, ': ');
  }
  if (preview.secrets.length > 0) {
    const storage = unwrap(await api.getAppInfo({})).secretStorage?.sentence ?? '';
    out(`  Secret values: ${preview.secrets.join(', ')}. ${storage}`.trimEnd());
  }
  if (preview.runtime?.note !== undefined) out(`  ${preview.runtime.note}`);

  const confirmed =
    options.yes || (tty && /^y(es)?$/i.test((await ask('Install and start it? [y/N] ', false)).trim()));
  if (!confirmed) {
    await api.dismissInstall({ id: pending.id });
    throw new CliError(
      EXIT.usage,
      tty ? 'Not installed.' : 'Not installed: confirm with --yes (there is no terminal to ask in)',
    );
  }
  const snapshot = unwrap(await api.installServer(request));
  const detail = snapshot.status === 'failed' && snapshot.error !== undefined ? `: ${snapshot.error}` : '';
  out(`Installed "${snapshot.name}" (${snapshot.status}${detail}).`);
  return snapshot.status === 'failed' ? EXIT.connection : EXIT.ok;
}

/** `--value ID=VALUE` first; then, on a terminal, a prompt per value (a secret is not echoed). */
async function collectValues(
  option: InstallOption,
  given: readonly string[],
  tty: boolean,
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const pair of given) {
    const at = pair.indexOf('=');
    if (at < 1) throw new CliError(EXIT.usage, `--value takes ID=VALUE, not "${pair}"`);
    values[pair.slice(0, at)] = pair.slice(at + 1);
  }
  for (const f of option.fields) {
    if (f.id in values) continue;
    if (!tty) {
      if (f.required && f.default === undefined) {
        throw new CliError(EXIT.usage, `This install needs a value for ${f.label}: pass --value ${f.id}=…`);
      }
      continue;
    }
    const answer = await ask(promptFor(f), f.secret);
    if (answer !== '') values[f.id] = answer;
  }
  return values;
}

function promptFor(f: InstallField): string {
  const notes = [
    f.description,
    f.choices !== undefined ? `one of ${f.choices.join(', ')}` : undefined,
    f.default !== undefined && !f.secret ? `default ${f.default}` : undefined,
    f.required ? 'required' : 'optional',
  ].filter((n): n is string => n !== undefined && n !== '');
  return `${f.label}${f.secret ? ' (secret, not shown)' : ''} [${notes.join('; ')}]: `;
}

/** One line from the terminal; a secret's keys are not echoed. */
async function ask(question: string, secret: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (!muted) process.stdout.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  process.stdout.write(terminalSafe(question));
  muted = secret;
  try {
    return await rl.question('');
  } finally {
    rl.close();
    if (secret) process.stdout.write('\n');
  }
}

function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new CliError(errorExitCode(result.error.code), result.error.message);
}
