import type { ServerSandbox } from '../../shared/model/sandbox.js';
import type { ServerSnapshot, ToolCallResult, ToolInfo } from '../../shared/model/server.js';
import { jsonTerminalSafe, terminalSafe } from '../../shared/text/invisible.js';
import { ellipsize } from '../host/text.js';

/**
 * Every line the CLI prints passes through here: server-provided names,
 * descriptions and results may carry terminal control sequences (window
 * title, OSC 52 clipboard writes, clearing the screen) or bidi overrides,
 * which are spelled out instead of acting on the terminal.
 */
const out = (text: string) => process.stdout.write(`${terminalSafe(text)}\n`);
const outJson = (value: unknown) =>
  process.stdout.write(`${jsonTerminalSafe(JSON.stringify(value, null, 2))}\n`);

export function printServers(servers: ServerSnapshot[], json: boolean): void {
  if (json) {
    outJson(
      servers.map((s) => ({
        name: s.name,
        status: s.status,
        transport: transportLabel(s),
        error: s.error,
        protocolVersion: s.protocolVersion,
        era: s.era,
        serverInfo: s.serverInfo,
        counts: s.counts,
        auth: s.auth !== undefined ? authJson(s.auth) : undefined,
        sandbox: s.sandbox,
      })),
    );
    return;
  }
  if (servers.length === 0) {
    out('No servers configured.');
    return;
  }
  const rows = servers.map((s) => [
    s.name,
    s.status,
    transportLabel(s),
    s.protocolVersion ?? '-',
    s.era ?? '-',
    s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : '-',
    String(s.counts.tools),
    String(s.counts.resources),
    String(s.counts.prompts),
    authLabel(s),
    s.sandbox === undefined ? '-' : s.sandbox.state,
  ]);
  table([
    [
      'NAME',
      'STATUS',
      'TRANSPORT',
      'PROTOCOL',
      'ERA',
      'SERVER',
      'TOOLS',
      'RESOURCES',
      'PROMPTS',
      'SIGN-IN',
      'SANDBOX',
    ],
    ...rows,
  ]);
  for (const s of servers) if (s.error !== undefined) out(cell(`${s.name}: ${s.error}`));
  for (const s of servers) if (s.sandbox?.state === 'off') out(cell(`${s.name}: ${notSandboxed(s.sandbox)}`));
  for (const s of servers) {
    if (s.auth?.state === 'required') {
      out(cell(`${s.name}: ${s.auth.message ?? 'sign-in required'} (mcp-host login "${s.name}")`));
    }
  }
}

/** "Not sandboxed: bubblewrap is not installed (fix: install bubblewrap …)". */
function notSandboxed(sandbox: ServerSandbox): string {
  const fix = sandbox.fix !== undefined ? ` (fix: ${sandbox.fix})` : '';
  return `Not sandboxed: ${sandbox.reason ?? 'unknown reason'}${fix}`;
}

/** `mcp-host sandbox <server>`: the policy the server runs with, or why it runs without one. */
export function printSandbox(server: ServerSnapshot, json: boolean): void {
  const sandbox = server.sandbox;
  if (json) {
    outJson(sandbox ?? { state: 'off', reason: 'remote servers are not sandboxed (they run elsewhere)' });
    return;
  }
  if (sandbox === undefined) {
    out(`${server.name}: remote server, not sandboxed (it runs elsewhere)`);
    return;
  }
  if (sandbox.state === 'off' || sandbox.policy === undefined) {
    out(`${server.name}: ${notSandboxed(sandbox)}`);
    return;
  }
  const { policy } = sandbox;
  const list = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : 'nothing');
  const { network: net } = policy;
  const network =
    net.mode === 'none'
      ? 'none (no network at all)'
      : `${net.mode === 'filtered' ? 'filtered' : 'open'}: ${net.hosts.length > 0 ? `allowed ${net.hosts.join(', ')}` : 'no host allowed yet'}${net.denied !== undefined && net.denied.length > 0 ? `; denied ${net.denied.join(', ')}` : ''}${net.reason !== undefined ? ` (${net.reason})` : ''}`;
  out(`${server.name}: Sandboxed`);
  out(cell(`  read:   everything except ${list(policy.denyRead)}`));
  if (policy.allowRead.length > 0) out(cell(`  also read: ${list(policy.allowRead)}`));
  out(cell(`  write:  ${list(policy.write)}`));
  out(cell(`  network: ${network}`));
  out(cell(`  state folder: ${policy.stateFolder}`));
  if (sandbox.blocked !== undefined && sandbox.blocked.length > 0)
    out(cell(`  blocked: ${sandbox.blocked.join(' · ')}`));
}

/** The sign-in column: who is signed in and until when, or that a sign-in is needed. */
function authLabel(s: ServerSnapshot): string {
  const auth = s.auth;
  if (!auth) return '-';
  if (auth.state === 'required') return 'required';
  if (auth.state === 'waiting') return 'waiting';
  const who = auth.account ?? 'signed in';
  const until =
    auth.expiresAt !== undefined ? ` until ${new Date(auth.expiresAt).toISOString().slice(0, 16)}Z` : '';
  return `${who}${until}${auth.refreshable === true ? ' (renews)' : ''}`;
}

function authJson(auth: NonNullable<ServerSnapshot['auth']>) {
  const { authorizationUrl: _link, ...shown } = auth;
  return shown;
}

/** "stdio", or for a remote server the HTTP transport actually used ("http" until it connected). */
function transportLabel(s: ServerSnapshot): string {
  return s.httpTransport ?? s.transport;
}

export function printTools(tools: ToolInfo[], json: boolean): void {
  if (json) {
    outJson(tools);
    return;
  }
  if (tools.length === 0) {
    out('This server has no tools.');
    return;
  }
  table(tools.map((t) => [t.name, firstLine(t.title ?? t.description ?? '')]));
}

export function printCallResult(result: ToolCallResult, json: boolean): void {
  if (json) {
    outJson(result);
    return;
  }
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        out(block.text);
        break;
      case 'image':
      case 'audio':
        out(`[${block.type}: ${block.mimeType}, ${String(Math.floor((block.data.length * 3) / 4))} bytes]`);
        break;
      case 'resource_link':
        out(`[resource link: ${block.uri}]`);
        break;
      case 'resource':
        out(block.text ?? `[resource: ${block.uri}, ${String(block.blobBytes ?? 0)} bytes]`);
        break;
      case 'unknown':
        out(block.json);
        break;
    }
  }
  if (result.structuredContent !== undefined) out(result.structuredContent);
  if (result.isError) process.stderr.write('mcp-host: the tool reported an error\n');
}

function firstLine(text: string): string {
  return ellipsize(text.split('\n')[0] ?? '', 100);
}

/** One line of server text for a table cell or a message: controls and newlines spelled out. */
function cell(text: string): string {
  return terminalSafe(text, { singleLine: true });
}

function table(raw: string[][]): void {
  // Widths are measured on what is printed, after control characters are spelled out.
  const rows = raw.map((row) => row.map(cell));
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  for (const row of rows)
    out(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
}
