import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** In the data folder: the headless shell's access token and last port, readable by the user only. */
export const SESSION_FILE_NAME = 'headless-session.json';

const SessionSchema = z.object({
  token: z.string().regex(/^[0-9a-f]{64}$/),
  port: z.number().int().min(1).max(65535).optional(),
  /** The apps' sandbox origin's port. */
  sandboxPort: z.number().int().min(1).max(65535).optional(),
});
export type HeadlessSession = z.infer<typeof SessionSchema>;

export const newToken = (): string => randomBytes(32).toString('hex');

/**
 * The headless shell's per-installation session: one access token (and the
 * port last used) kept 0600 in the data folder, so a host restarted on the
 * same folder answers the page that is still open, at the same address.
 * `mcp-host rotate-token` replaces the token; a running shell notices and
 * accepts only the new one from then on.
 */
export class SessionFile {
  readonly path: string;
  private cached: { session: HeadlessSession; stamp: string } | undefined;

  constructor(dataDir: string) {
    this.path = join(dataDir, SESSION_FILE_NAME);
  }

  /** The stored session, created (with a fresh token) when missing or unreadable. */
  read(): HeadlessSession {
    const stamp = this.stamp();
    if (this.cached && stamp === this.cached.stamp) return this.cached.session;
    let session: HeadlessSession | undefined;
    try {
      const parsed = SessionSchema.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      if (parsed.success) session = parsed.data;
    } catch {
      // Missing or damaged: a new token below.
    }
    if (!session) return this.write({ token: newToken() });
    this.cached = { session, stamp };
    return session;
  }

  /**
   * The stored session if there is a valid one, without creating it (the
   * CLI looking for a running shell must not write a new token).
   */
  peek(): HeadlessSession | undefined {
    try {
      const parsed = SessionSchema.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** The current token (read again when the file changed, e.g. after rotate-token). */
  token(): string {
    return this.read().token;
  }

  /** Keeps the ports used, so a restart answers at the same address (and serves apps from the same origin). */
  rememberPorts(port: number, sandboxPort: number): void {
    const current = this.read();
    if (current.port !== port || current.sandboxPort !== sandboxPort)
      this.write({ ...current, port, sandboxPort });
  }

  /** Replaces the token; pages opened with the old one can no longer connect. */
  rotate(): HeadlessSession {
    return this.write({ ...this.read(), token: newToken() });
  }

  private write(session: HeadlessSession): HeadlessSession {
    const temp = `${this.path}.${String(process.pid)}.tmp`;
    writeFileSync(temp, `${JSON.stringify(session)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.path);
    this.cached = { session, stamp: this.stamp() };
    return session;
  }

  /** Changes whenever the file is replaced: every write renames a new file into place. */
  private stamp(): string {
    try {
      const s = statSync(this.path);
      return `${String(s.ino)}:${String(s.mtimeMs)}`;
    } catch {
      return 'missing';
    }
  }
}
