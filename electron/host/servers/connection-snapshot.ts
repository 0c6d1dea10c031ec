import type { ServerConfig, TransportEntry } from '../../../shared/model/config.js';
import type { ServerIdentity } from '../../../shared/model/consent-rules.js';
import type { ServerSnapshot, ToolInfo } from '../../../shared/model/server.js';
import { describeTarget, negotiatedFacts } from './connection-facts.js';
import type { ConnectionState } from './lifecycle/connection-state.js';
import { errorOf } from './lifecycle/connection-state.js';
import type { ServerOutput } from './lifecycle/server-output.js';
import type { ServerTransport } from './transport/server-transport.js';

/** What a snapshot is built from: one connection's state and what it knows of its server. */
export interface SnapshotParts {
  name: string;
  entry: TransportEntry;
  state: ConnectionState;
  transport: ServerTransport;
  output: ServerOutput;
  connectTimeoutMs: number;
  crashCount: number;
  identity: ServerIdentity;
}

const NO_COUNTS: ServerSnapshot['counts'] = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };

/** The server as the UI sees it: status, what it offers, how it runs, what went wrong. */
export function buildSnapshot(parts: SnapshotParts): ServerSnapshot {
  const { state, output, entry } = parts;
  const connected = state.status === 'connected' ? state : undefined;
  const auth = parts.transport.signIn?.current()?.describe();
  const error = errorOf(state);
  const stray = output.strayStdout;
  return {
    ...(auth !== undefined ? { auth } : {}),
    name: parts.name,
    transport: entry.kind,
    target: describeTarget(entry.config),
    ...parts.transport.facts(state.status),
    ...(entry.kind === 'stdio' && entry.config.sandbox !== undefined
      ? { sandboxSettings: entry.config.sandbox }
      : {}),
    status: state.status,
    ...(error !== undefined ? { error } : {}),
    ...negotiatedFacts(connected?.session.client),
    tools: connected ? toolsWithDisabledFlags(entry.config, connected.catalog.tools) : [],
    ...(connected?.catalog.toolsCapped ? { toolsCapped: connected.catalog.toolsCapped } : {}),
    counts: connected ? connected.catalog.counts() : NO_COUNTS,
    stderrTail: output.stderrTail,
    ...(connected ? { connectedAt: connected.since } : {}),
    ...(state.status === 'connecting' ? { startingSince: state.since } : {}),
    connectTimeoutMs: parts.connectTimeoutMs,
    ...(stray ? { strayStdout: stray } : {}),
    ...(parts.crashCount > 0 ? { crashCount: parts.crashCount } : {}),
    ...(state.status === 'restarting' ? { restartAt: state.at } : {}),
    identity: parts.identity,
  };
}

/** The tools as the snapshot shows them: `disabled` comes from the config only, never from the server. */
function toolsWithDisabledFlags(config: ServerConfig, tools: readonly ToolInfo[]): ToolInfo[] {
  const disabled = new Set(config.disabledTools ?? []);
  return tools.map((tool) => {
    const { disabled: _ignored, ...rest } = tool;
    return disabled.has(tool.name) ? { ...rest, disabled: true } : rest;
  });
}
