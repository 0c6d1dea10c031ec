// `npm start` (after `npm run build`): runs the desktop app in Electron when
// its binary is installed, otherwise the headless shell in the browser. Extra
// arguments pass through: `npm start -- --config ./my-servers.json`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinaryStatus } from './electron-binary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);

const electron = electronBinary();
if (electron) {
  console.log('Starting MCP Host (Electron)…');
  run(electron, [root, ...extraArgs]);
} else {
  console.log(
    'Electron binary is not installed — starting the headless shell and opening it in your browser.',
  );
  run(process.execPath, [path.join(root, 'dist', 'cli', 'mcp-host.mjs'), 'serve', '--open', ...extraArgs]);
}

/**
 * The Electron executable, or null when it is not installed. Only once the
 * binary is known to exist is 'electron' required (otherwise it downloads).
 */
function electronBinary() {
  if (electronBinaryStatus().binary === undefined) return null;
  try {
    const binary = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Runs the child in this terminal, forwards Ctrl+C / termination, and exits with its status. */
function run(command, args) {
  // Relative paths in the arguments are meant from where `npm start` was typed.
  const child = spawn(command, args, { cwd: process.env.INIT_CWD || process.cwd(), stdio: 'inherit' });
  const forward = (signal) => {
    // The terminal usually signals the child too; a second signal is harmless.
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('error', (error) => {
    console.error(`Could not start ${path.basename(command)}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1));
  });
}
