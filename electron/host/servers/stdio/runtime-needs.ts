/**
 * The runtimes a server entry's command belongs to, in the words a person
 * installs them by, and where to get them. Used when a server is started
 * (launch-spec.ts: a missing runtime fails at once with one line) and before
 * an install (install/runtime-check.ts).
 */
export interface RuntimeNeed {
  /** "uv (uvx)": what the person has to install. */
  what: string;
  /** How to get it, one short clause. */
  how: string;
}

const UV_HOW =
  process.platform === 'win32'
    ? 'install it with: powershell -ExecutionPolicy ByPass -c "irm https://astral.sh/uv/install.ps1 | iex" (see https://docs.astral.sh/uv/)'
    : 'install it with: curl -LsSf https://astral.sh/uv/install.sh | sh (see https://docs.astral.sh/uv/)';

const PYTHON_HOW =
  'install Python 3 from https://www.python.org/downloads/ or with your system package manager, or start the server with uvx';

const NEEDS: Readonly<Record<string, RuntimeNeed>> = {
  npx: { what: 'Node.js (npx)', how: 'install Node.js from https://nodejs.org/' },
  uvx: { what: 'uv (uvx)', how: UV_HOW },
  uv: { what: 'uv', how: UV_HOW },
  python: { what: 'Python (python)', how: PYTHON_HOW },
  python3: { what: 'Python (python3)', how: PYTHON_HOW },
  docker: { what: 'Docker', how: 'install it from https://docs.docker.com/get-docker/' },
};

/** The command's name as the runtime tables know it: no folder, no .exe/.cmd, lower case. */
export function launcherName(command: string): string {
  return (command.split(/[\\/]/).pop() ?? command).replace(/\.(exe|cmd)$/i, '').toLowerCase();
}

/** What a launcher command needs, if it is one of the runtimes the host knows how to name. */
export function runtimeNeed(command: string): RuntimeNeed | undefined {
  return NEEDS[launcherName(command)];
}

/** The other name Python goes by (python ↔ python3), to suggest when only that one is installed. */
export function otherPythonName(command: string): string | undefined {
  const name = launcherName(command);
  return name === 'python' ? 'python3' : name === 'python3' ? 'python' : undefined;
}
