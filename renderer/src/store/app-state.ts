import type { ConnectionState } from '../bridge/connection.js';
import type { AppInfo, ConfigState } from '../../../shared/model/app.js';
import type { ServerSnapshot, ToolCallProgress, ToolCallResult } from '../../../shared/model/server.js';
import type { ErrorCode, HostErrorValue, Result } from '../../../shared/ipc/result.js';

/** Why a tool call did not produce a result. */
export interface ToolCallError {
  /** "json": caught in the renderer before calling; "host": the host's error value. */
  readonly kind: 'json' | 'host';
  readonly code?: ErrorCode;
  readonly message: string;
}

/** The arguments draft and last outcome of one tool of one server. */
export interface ToolCallState {
  /** What the person typed; undefined until they edit (the UI shows the schema skeleton). */
  readonly argumentsText: string | undefined;
  readonly running: boolean;
  /** The id of the running call (for progress events and Cancel). */
  readonly callId?: string | undefined;
  /** The latest progress the running call reported. */
  readonly progress?: Pick<ToolCallProgress, 'progress' | 'total' | 'message'> | undefined;
  /** Cancel was pressed; the call ends as soon as the host confirms. */
  readonly cancelling?: boolean | undefined;
  readonly result: ToolCallResult | undefined;
  readonly error: ToolCallError | undefined;
}

/** Everything the UI shows. The host is the source of truth; this is its view. */
export interface AppData {
  readonly connection: ConnectionState;
  readonly connectionHint: string | undefined;
  /** True once the first full snapshot (servers, config state) has arrived. */
  readonly loaded: boolean;
  /** Set when fetching the snapshot failed for a reason other than a lost connection. */
  readonly loadError: HostErrorValue | undefined;
  readonly appInfo: AppInfo | undefined;
  /**
   * When the page found, on reconnecting, a different host process than the
   * one it knew (the host was restarted): its servers and any running turn
   * stopped with the old one. Cleared by dismissHostRestarted.
   */
  readonly hostRestartedAt: number | undefined;
  readonly configState: ConfigState | undefined;
  /** Server names in the host's order. */
  readonly serverNames: readonly string[];
  readonly servers: Readonly<Record<string, ServerSnapshot>>;
  readonly selectedServer: string | undefined;
  readonly selectedTool: string | undefined;
  /** The tab the selected server shows (undefined: Tools); a link may open another (its Settings). */
  readonly serverTab: string | undefined;
  /** Per server, per tool: arguments drafts and last outcomes. */
  readonly toolCalls: Readonly<Record<string, Readonly<Record<string, ToolCallState>>>>;
}

/** The only way React changes anything: each action asks the host and applies its answer. */
export interface AppActions {
  /** Selects a server, on `tab` if given (else its Tools). */
  selectServer: (name: string, tab?: string) => void;
  selectServerTab: (tab: string) => void;
  selectTool: (name: string | undefined) => void;
  startServer: (name: string) => Promise<Result<ServerSnapshot>>;
  stopServer: (name: string) => Promise<Result<ServerSnapshot>>;
  /** Stops and starts a server, clearing its crash count. */
  restartServer: (name: string) => Promise<Result<ServerSnapshot>>;
  /** OAuth: opens the sign-in page in the browser; the server then waits ("waiting") for it. */
  signInServer: (name: string) => Promise<Result<ServerSnapshot>>;
  /** Stops waiting for the browser; the server stays "Sign-in required". */
  cancelSignIn: (name: string) => Promise<Result<ServerSnapshot>>;
  /** Revokes the tokens where the authorization server allows it, then forgets them. */
  signOutServer: (name: string) => Promise<Result<ServerSnapshot>>;
  removeServer: (name: string) => Promise<Result<null>>;
  reloadConfig: () => Promise<Result<ConfigState>>;
  setToolArguments: (server: string, tool: string, text: string) => void;
  /** Checks that `argumentsText` is a JSON object, then calls the tool; the outcome lands in toolCalls. */
  callTool: (server: string, tool: string, argumentsText: string) => Promise<void>;
  /** Cancels the running call of a tool (the server is told); its outcome lands in toolCalls. */
  cancelToolCall: (server: string, tool: string) => Promise<void>;
  dismissHostRestarted: () => void;
}

export interface AppState extends AppData {
  readonly actions: AppActions;
}
