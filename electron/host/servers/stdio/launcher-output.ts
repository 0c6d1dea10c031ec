import type { ServerLauncher } from '../../../../shared/model/server.js';

/**
 * Package launchers (npx, uvx, pnpm dlx, …) run a server after fetching it,
 * and print their own warnings and progress on the same stderr. Those lines
 * are the launcher's, not the server's, and must not be quoted as the
 * server's last words when it fails.
 */

interface LauncherRule {
  name: string;
  /** Whether `command args` runs through this launcher. */
  matches: (args: readonly string[]) => boolean;
  /** Lines the launcher itself prints. */
  lines: RegExp;
}

const NPM_LINES = /^npm (?:warn|WARN|notice|NOTICE|error|ERR!|http|info|verb)\b/;
const ALWAYS = (): boolean => true;
const firstArgIs =
  (...words: string[]) =>
  (args: readonly string[]): boolean =>
    args[0] !== undefined && words.includes(args[0]);

const RULES: Readonly<Record<string, LauncherRule>> = {
  npx: { name: 'npx', matches: ALWAYS, lines: NPM_LINES },
  npm: { name: 'npm exec', matches: firstArgIs('exec', 'x'), lines: NPM_LINES },
  pnpx: {
    name: 'pnpm dlx',
    matches: ALWAYS,
    lines: /^(?:Progress: resolved|Packages: [+-]|Downloading |WARN |ERR_PNPM|[+-]{3,})/,
  },
  pnpm: {
    name: 'pnpm dlx',
    matches: firstArgIs('dlx'),
    lines: /^(?:Progress: resolved|Packages: [+-]|Downloading |WARN |ERR_PNPM|[+-]{3,})/,
  },
  bunx: {
    name: 'bunx',
    matches: ALWAYS,
    lines: /^(?:Resolving dependencies|Resolved, downloaded and extracted|Saved lockfile|bun add )/,
  },
  bun: {
    name: 'bunx',
    matches: firstArgIs('x'),
    lines: /^(?:Resolving dependencies|Resolved, downloaded and extracted|Saved lockfile|bun add )/,
  },
  yarn: { name: 'yarn dlx', matches: firstArgIs('dlx'), lines: /^(?:➤ )?YN\d{4}\b/ },
  uvx: {
    name: 'uvx',
    matches: ALWAYS,
    lines:
      /^(?:(?:Resolved|Prepared|Installed|Uninstalled|Audited|Downloading|Downloaded|Built|Building|Updated|Using) \S|warning: |\s[+-] \S+==)/,
  },
  uv: {
    name: 'uvx',
    matches: (args) => args[0] === 'tool' && args[1] === 'run',
    lines:
      /^(?:(?:Resolved|Prepared|Installed|Uninstalled|Audited|Downloading|Downloaded|Built|Building|Updated|Using) \S|warning: |\s[+-] \S+==)/,
  },
  pipx: {
    name: 'pipx run',
    matches: firstArgIs('run'),
    lines: /^(?:⚠️|creating virtual environment|installing |determining package name)/,
  },
  docker: {
    name: 'docker run',
    matches: firstArgIs('run'),
    lines:
      /^(?:Unable to find image|[0-9a-f]{12}: (?:Pulling|Waiting|Downloading|Verifying|Pull complete|Extracting|Already exists)|Digest: sha256:|Status: Downloaded)/,
  },
};

/** The launcher a stdio command goes through, if it is one that fetches packages on first use. */
export function launcherOf(command: string, args: readonly string[]): ServerLauncher | undefined {
  const rule = ruleFor(command, args);
  return rule ? { name: rule.name, mayDownload: true } : undefined;
}

/** A package launcher whose own stderr lines are told apart from the server's. */
export interface LauncherLines {
  name: string;
  /** True for a line the launcher itself printed. */
  test: (line: string) => boolean;
}

/** How to tell the launcher's lines from the server's; `undefined` for a command that runs no launcher. */
export function launcherLines(command: string, args: readonly string[]): LauncherLines | undefined {
  const rule = ruleFor(command, args);
  return rule ? { name: rule.name, test: (line) => rule.lines.test(line) } : undefined;
}

function ruleFor(command: string, args: readonly string[]): LauncherRule | undefined {
  const base = (command.split(/[\\/]/).pop() ?? command).replace(/\.(?:exe|cmd|bat|ps1)$/i, '').toLowerCase();
  const rule = Object.hasOwn(RULES, base) ? RULES[base] : undefined;
  return rule?.matches(args) === true ? rule : undefined;
}
