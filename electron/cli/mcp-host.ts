import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createHost } from '../host/host.js';
import { NodePlatform } from '../host/node-platform.js';
import { startHeadless } from '../headless/server.js';
import { SessionFile } from '../headless/session-file.js';
import { NEW_LINK_HINT, loginUrl } from '../headless/page-login.js';
import { CliError, EXIT, errorExitCode } from './exit-codes.js';
import { printCallResult, printSandbox, printServers, printTools } from './output.js';
import type { Host } from '../host/host-types.js';
import type { Result } from '../../shared/ipc/result.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import { createLocalClient } from '../host/ipc/local-client.js';
import { terminalSafe } from '../../shared/text/invisible.js';
import { isBundleArgument, runBundleCommand } from './install-bundle.js';
import { installLink } from './install-link.js';
import { callWatchingTasks, printTasks } from './cli-tasks.js';

const USAGE = `Usage: mcp-host <command> [options]

Commands:
  serve [--port N] [--open]              Run the app headless and print a sign-in link for its page (the
                                         link works once, for 15 minutes; the page's port stays the same
                                         across restarts on one data folder)
  link [--open]                          Print a new sign-in link for the running headless app's page
  rotate-token                           Replace the headless access token (open pages must sign in again)
  servers [--json]                       Connect every configured server and show its status and sign-in
  login <server>                         Sign in to a remote server in the browser (OAuth)
  logout <server>                        Sign out of a remote server: revoke and forget its tokens
  sandbox <server> [--json]              Start a local server and print the sandbox policy it runs with
                                         (what it may read, write and reach), or why it runs without one
  tools <server> [--json]                List a server's tools
  call <server> <tool> --args '<json>'   Call a tool [--json]; a tool that runs as a task prints its
                                         status lines on stderr while it waits, Ctrl+C cancels the task
  tasks [server] [--json]                List running and recent tasks (of one server)
  install <file.mcpb> [--set key=value]… [--yes]
                                         Install a server from an MCP bundle: shows it, asks for its
                                         settings (or takes --set) and for permission to run it
  uninstall <server>                     Remove a server installed from a bundle, its files and secrets
  install --link '<mcp-host://install?…>' Install from a link: shown in the running app's page, or
                                         here with the exact command [--value ID=VALUE] [--name N] [--yes]

Options:
  --config <file>   Use this mcp-servers.json instead of the one in the app's data folder
  -h, --help        Show this help
  -v, --version     Show the version

Exit codes: 0 ok, 1 the tool returned an error result, 2 usage or configuration error, 3 connection failure.`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        open: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        args: { type: 'string' },
        set: { type: 'string', multiple: true },
        link: { type: 'string' },
        value: { type: 'string', multiple: true },
        name: { type: 'string' },
        yes: { type: 'boolean', default: false },
        'dev-origin': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (error) {
    throw new CliError(EXIT.usage, error instanceof Error ? error.message : 'invalid arguments');
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${__APP_VERSION__}\n`);
    return EXIT.ok;
  }
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined && !values.help ? EXIT.usage : EXIT.ok;
  }

  if (command === 'rotate-token') {
    expectArgs(rest, 0, 'rotate-token');
    return rotateToken();
  }

  if (command === 'link') {
    expectArgs(rest, 0, 'link [--open]');
    return printLink(values.open);
  }

  if ((command === 'install' && isBundleArgument(rest[0])) || command === 'uninstall') {
    return runBundleCommand(command, rest, { config: values.config, set: values.set ?? [], yes: values.yes });
  }

  if (command === 'install' && values.link !== undefined) {
    expectArgs(rest, 0, "install --link '<mcp-host://install?…>'");
    return installLink({
      link: values.link,
      yes: values.yes,
      values: values.value ?? [],
      name: values.name,
      dataDir: new NodePlatform().userDataDir(),
      createHost: () => {
        const host = createHost({
          platform: new NodePlatform(),
          shell: 'headless',
          appVersion: __APP_VERSION__,
          configPath: values.config,
          interactive: false,
        });
        return { host, api: createLocalClient(host.handlers) };
      },
    });
  }

  if (command === 'install') {
    // Neither a bundle nor a link: say which of the two it takes, or that the file is not there.
    throw new CliError(
      EXIT.usage,
      rest[0] !== undefined
        ? `No such file: ${terminalSafe(rest[0])} (install takes a .mcpb bundle file or --link '<mcp-host://install?…>')`
        : `install takes a .mcpb bundle file or --link '<mcp-host://install?…>'`,
    );
  }

  const host = createHost({
    platform: new NodePlatform(),
    shell: 'headless',
    appVersion: __APP_VERSION__,
    configPath: values.config,
    // Only `serve` has a UI to answer sampling and elicitation.
    interactive: command === 'serve',
  });

  const api = createLocalClient(host.handlers);
  switch (command) {
    case 'serve':
      expectArgs(rest, 0, 'serve');
      return serve(host, api, parsePort(values.port), values.open, values['dev-origin'] ?? []);
    case 'servers': {
      expectArgs(rest, 0, 'servers');
      await loadConfig(host);
      const list = unwrap(await api.listServers({}));
      const snapshots = await Promise.all(
        list.map(async (s) => unwrap(await api.startServer({ name: s.name }))),
      );
      printServers(snapshots, values.json);
      await host.dispose();
      return snapshots.some((s) => s.status === 'failed') ? EXIT.connection : EXIT.ok;
    }
    case 'login': {
      const [server = ''] = expectArgs(rest, 1, 'login <server>');
      const code = await login(host, api, server);
      await host.dispose();
      return code;
    }
    case 'logout': {
      const [server = ''] = expectArgs(rest, 1, 'logout <server>');
      await loadConfig(host);
      const snapshot = unwrap(await api.signOutServer({ name: server }));
      process.stdout.write(
        `${terminalSafe(snapshot.auth?.message ?? 'Signed out')} of "${terminalSafe(server)}".\n`,
      );
      await host.dispose();
      return EXIT.ok;
    }
    case 'sandbox': {
      const [server = ''] = expectArgs(rest, 1, 'sandbox <server>');
      const snapshot = await connectOne(host, api, server);
      printSandbox(snapshot, values.json);
      await host.dispose();
      return EXIT.ok;
    }
    case 'tools': {
      const [server = ''] = expectArgs(rest, 1, 'tools <server>');
      const snapshot = await connectOne(host, api, server);
      printTools(snapshot.tools, values.json);
      await host.dispose();
      return EXIT.ok;
    }
    case 'call': {
      const [server = '', tool = ''] = expectArgs(rest, 2, 'call <server> <tool>');
      await connectOne(host, api, server);
      const argumentsJson = values.args ?? '{}';
      const result = await callWatchingTasks(host, api, { server, tool, argumentsJson });
      await host.dispose();
      const value = unwrap(result);
      printCallResult(value, values.json);
      return value.isError ? EXIT.toolError : EXIT.ok;
    }
    case 'tasks': {
      if (rest.length > 1) throw new CliError(EXIT.usage, 'Usage: mcp-host tasks [server]');
      await loadConfig(host);
      printTasks(unwrap(await api.listTasks(rest[0] !== undefined ? { server: rest[0] } : {})), values.json);
      await host.dispose();
      return EXIT.ok;
    }
    default:
      throw new CliError(EXIT.usage, `Unknown command "${command}". Run mcp-host --help.`);
  }
}

async function serve(
  host: Host,
  api: HostRequests,
  port: number | undefined,
  open: boolean,
  devOrigins: string[],
): Promise<number> {
  await host.start();
  const staticDir = fileURLToPath(new URL('../renderer/', import.meta.url));
  // One token and (unless --port says otherwise) one port per data folder: a
  // page left open reconnects when the host is started again.
  const session = new SessionFile(new NodePlatform().userDataDir());
  const token = () => session.token();
  const stored = session.read();
  const remembered = port ?? stored.port;
  const sandboxPort = stored.sandboxPort;
  const server = await startHeadless({
    host,
    staticDir,
    port: remembered ?? 0,
    sandboxPort,
    extraOrigins: devOrigins,
    token,
  }).catch((error: unknown) => {
    // The remembered port is taken (another program, another host): any free one will do.
    if (port === undefined && remembered !== undefined && isAddressInUse(error))
      return startHeadless({ host, staticDir, port: 0, sandboxPort, extraOrigins: devOrigins, token });
    throw error;
  });
  session.rememberPorts(server.port, server.sandboxPort);
  const config = unwrap(await api.getConfigState({}));
  const url = server.url;
  process.stdout.write(
    `MCP Host is running headless.\n  Open: ${url}\n  Config: ${config.path}\n` +
      `  The link signs one browser in, once, within 15 minutes (the page is then http://127.0.0.1:${String(server.port)}/).\n` +
      `  ${NEW_LINK_HINT}\n` +
      `  Press Ctrl+C to stop.\n`,
  );
  if (config.error !== undefined)
    process.stderr.write(`warning: ${terminalSafe(config.error, { singleLine: true })}\n`);
  if (open) {
    // The printed link's code is used by this browser; the link stays valid if it does not open.
    await new NodePlatform().openExternal(url).catch(() => {
      process.stderr.write('Could not open a browser; open the URL above yourself.\n');
    });
  }
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void Promise.all([server.close(), host.dispose()]).then(() => {
        resolve(EXIT.ok);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function loadConfig(host: Host): Promise<void> {
  const state = await host.loadConfig();
  if (state.error !== undefined) throw new CliError(EXIT.usage, state.error);
}

async function connectOne(host: Host, api: HostRequests, name: string) {
  await loadConfig(host);
  const snapshot = unwrap(await api.startServer({ name }));
  if (snapshot.status !== 'connected') {
    await host.dispose();
    if (snapshot.status === 'sign-in-required') {
      const why = snapshot.auth?.message ?? `Server "${name}" requires sign-in`;
      throw new CliError(EXIT.connection, `${why}. Run: mcp-host login "${name}"`);
    }
    throw new CliError(EXIT.connection, snapshot.error ?? `Server "${name}" is ${snapshot.status}`);
  }
  return snapshot;
}

/**
 * Signs in to a remote server: the browser opens the authorization page
 * (its address is printed too, for a machine where no browser opens) and
 * the command waits until the sign-in completes, fails or times out.
 */
async function login(host: Host, api: HostRequests, name: string): Promise<number> {
  await loadConfig(host);
  let snapshot = unwrap(await api.startServer({ name }));
  if (snapshot.transport !== 'http')
    throw new CliError(EXIT.usage, `Server "${name}" is not a remote server`);
  snapshot = unwrap(await api.signInServer({ name }));
  const link = snapshot.auth?.authorizationUrl;
  const storage = unwrap(await api.getAppInfo({})).secretStorage?.sentence;
  process.stdout.write(`Sign in to "${terminalSafe(name)}" in your browser.\n`);
  if (storage !== undefined) process.stdout.write(`${storage}\n`);
  if (link !== undefined) process.stdout.write(`If it did not open, visit:\n  ${terminalSafe(link)}\n`);
  for (;;) {
    const current = unwrap(await api.listServers({})).find((s) => s.name === name);
    if (!current) throw new CliError(EXIT.usage, `Server "${name}" was removed`);
    const waiting = current.auth?.state === 'waiting' || current.status === 'connecting';
    if (!waiting) {
      if (current.status === 'connected') {
        const who = current.auth?.account !== undefined ? ` as ${current.auth.account}` : '';
        process.stdout.write(`Signed in to "${terminalSafe(name)}"${terminalSafe(who)}.\n`);
        return EXIT.ok;
      }
      throw new CliError(
        EXIT.connection,
        current.auth?.message ?? current.error ?? `Server "${name}" is ${current.status}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new CliError(errorExitCode(result.error.code), result.error.message);
}

function expectArgs(rest: string[], count: number, usage: string): string[] {
  if (rest.length !== count) throw new CliError(EXIT.usage, `Usage: mcp-host ${usage}`);
  return rest;
}

/** Writes a new headless access token and prints a sign-in link that works from now on. */
function rotateToken(): number {
  const session = new SessionFile(new NodePlatform().userDataDir()).rotate();
  const link =
    session.port !== undefined
      ? loginUrl(session.token, session.port)
      : `(start mcp-host serve to get the link)`;
  process.stdout.write(
    `A new access token was written to the data folder. Pages signed in with the old one can no longer connect.\n  Open: ${link}\n`,
  );
  return EXIT.ok;
}

/** Prints (and with --open, opens) a new single-use sign-in link for the headless shell of this data folder. */
async function printLink(open: boolean): Promise<number> {
  const session = new SessionFile(new NodePlatform().userDataDir()).peek();
  if (session?.port === undefined)
    throw new CliError(
      EXIT.usage,
      'No headless app has run on this data folder yet: start it with mcp-host serve',
    );
  const link = loginUrl(session.token, session.port);
  process.stdout.write(`Open (works once, within 15 minutes): ${link}\n`);
  if (open) {
    await new NodePlatform().openExternal(link).catch(() => {
      process.stderr.write('Could not open a browser; open the URL above yourself.\n');
    });
  }
  return EXIT.ok;
}

function isAddressInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EADDRINUSE';
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(EXIT.usage, `--port must be a number from 0 to 65535, not "${text}"`);
  }
  return port;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const cliError = error instanceof CliError ? error : undefined;
    const message = cliError?.message ?? (error instanceof Error ? error.message : String(error));
    // Error messages can quote a server's stderr or a tool's text: print them inert, on one line.
    process.stderr.write(`mcp-host: ${terminalSafe(message, { singleLine: true })}\n`);
    process.exitCode = cliError?.exitCode ?? EXIT.connection;
  },
);
