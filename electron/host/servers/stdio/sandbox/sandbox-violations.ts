/**
 * Blocked attempts, read from what a sandboxed server writes to stderr. The
 * kernel refuses silently; the server's runtime words the refusal (Node's
 * "EACCES: permission denied, open '…'", Python's "[Errno 13] Permission
 * denied: '…'", a shell's "cannot create …: Read-only file system"), and a
 * server without network sees its connections refused or its names unresolved.
 */

const PATH_PATTERNS: ReadonlyArray<{ re: RegExp; what: 'read' | 'write' | 'open' }> = [
  { re: /\bEROFS\b[^'"]*['"]([^'"]+)['"]/, what: 'write' },
  { re: /\[Errno 30\][^'"]*['"]([^'"]+)['"]/, what: 'write' },
  { re: /cannot create ([^:]+): Read-only file system/, what: 'write' },
  { re: /(\/[^\s:'"]+): Read-only file system/, what: 'write' },
  {
    re: /\b(?:EACCES|EPERM)\b[^'"]*\b(?:mkdir|rmdir|unlink|rename|copyfile|symlink|utime|chmod)\b[^'"]*['"]([^'"]+)['"]/,
    what: 'write',
  },
  { re: /\b(?:EACCES|EPERM)\b[^'"]*['"]([^'"]+)['"]/, what: 'open' },
  { re: /\[Errno 13\][^'"]*['"]([^'"]+)['"]/, what: 'open' },
  { re: /(\/[^\s:'"]+): Permission denied/, what: 'open' },
];

const NETWORK_PATTERNS: readonly RegExp[] = [
  /\bconnect (?:ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|EACCES) ([0-9a-fA-F.:[\]]+:\d+)/,
  /\bgetaddrinfo (?:EAI_AGAIN|ENOTFOUND) ([A-Za-z0-9.-]+)/,
  /\[Errno -3\] Temporary failure in name resolution[^']*'?([A-Za-z0-9.-]*)/,
  /\[Errno 101\] Network is unreachable/,
];

/** "No such file" for a path in a folder the sandbox shows empty (the app's data folder) is a blocked read too. */
const MISSING_PATTERNS: readonly RegExp[] = [
  /\bENOENT\b[^'"]*['"]([^'"]+)['"]/,
  /\[Errno 2\][^'"]*['"]([^'"]+)['"]/,
  /(\/[^\s:'"]+): No such file or directory/,
];

/** What a sandboxed process's refusals are checked against. */
export interface ViolationContext {
  home: string;
  /** The network is denied: refused connections and failed look-ups are the sandbox's doing. */
  networkDenied: boolean;
  /** Folders shown empty: a missing file there is a blocked read. */
  hidden: readonly string[];
  /** Inside a hidden folder but the server's own (its state folder). */
  own: readonly string[];
}

const inside = (path: string, dirs: readonly string[]): boolean =>
  dirs.some((dir) => path === dir || path.startsWith(`${dir}/`));

/** One blocked attempt worded for people ("read ~/.ssh/id_ed25519", "connect to 127.0.0.1:5432"), or undefined. */
export function blockedAttempt(line: string, context: ViolationContext): string | undefined {
  const { home, networkDenied } = context;
  const show = (path: string): string =>
    path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
  for (const re of MISSING_PATTERNS) {
    const path = re.exec(line)?.[1]?.trim();
    if (path !== undefined && inside(path, context.hidden) && !inside(path, context.own))
      return `read ${show(path)}`;
  }
  for (const { re, what } of PATH_PATTERNS) {
    const match = re.exec(line);
    const path = match?.[1]?.trim();
    if (path?.startsWith('/') === true) return `${what === 'open' ? 'read' : what} ${show(path)}`;
  }
  if (!networkDenied) return undefined;
  for (const re of NETWORK_PATTERNS) {
    const match = re.exec(line);
    if (!match) continue;
    const target = match[1];
    if (target === undefined || target === '') return 'reach the network';
    return /:\d+$/.test(target) ? `connect to ${target}` : `reach ${target}`;
  }
  return undefined;
}

const KEPT = 20;
const RECENT = 200;

/** The blocked attempts of one process, each distinct one logged once, the last few kept for the server view. */
export class BlockedAttempts {
  private readonly seen = new Set<string>();
  private kept: string[] = [];
  /** Every attempt with when it was seen (repeats too), the last RECENT, for `since`. */
  private recent: { at: number; attempt: string }[] = [];

  constructor(
    private readonly context: ViolationContext,
    private readonly report: (attempt: string, detail?: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  line(text: string): void {
    const attempt = blockedAttempt(text, this.context);
    if (attempt !== undefined) this.add(attempt);
  }

  /** An attempt the host refused itself (its network proxy), worded already: "connect to 10.0.0.5:5432". */
  add(attempt: string, detail?: string): void {
    this.recent.push({ at: this.now(), attempt });
    if (this.recent.length > RECENT * 2) this.recent = this.recent.slice(-RECENT);
    if (this.seen.has(attempt)) return;
    // A server that fails in a loop must not grow this without bound.
    if (this.seen.size >= 1000) return;
    this.seen.add(attempt);
    this.kept = [...this.kept, attempt].slice(-KEPT);
    this.report(attempt, detail);
  }

  get list(): string[] {
    return [...this.kept];
  }

  /** The distinct attempts seen at or after `at` (the `now` clock), oldest first: what one tool call ran into. */
  since(at: number): string[] {
    return [...new Set(this.recent.filter((entry) => entry.at >= at).map((entry) => entry.attempt))];
  }
}

/** The grouped notice: "blocked: read ~/.ssh/id_ed25519 · connect to 10.0.0.5:5432". */
export const blockedNotice = (attempts: readonly string[]): string =>
  `Sandbox blocked: ${attempts.join(' · ')}`;
