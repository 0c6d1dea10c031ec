import type { LogLevel } from '../../../../shared/model/logs.js';
import type { StrayStdout } from '../../../../shared/model/server.js';
import { oneLine } from '../../errors.js';
import type { LauncherLines } from '../stdio/launcher-output.js';
import type { NewLogEntry } from './server-log.js';

const TAIL_LINES = 50;
const STRAY_KEPT = 3;
/** Stray stdout lines written to the log one by one; past that only a count, so a spewing server cannot flood it. */
const STRAY_LOGGED = 200;

/**
 * What a server has written since it was last started by a person: the last
 * stderr lines (the server's own, the launcher's labelled as such, and the
 * host's notes), and the stdout lines that were not MCP messages. It words
 * the "last words" part of failure messages, so a failure quotes the server
 * and not npm.
 */
interface TailLine {
  from: 'server' | 'launcher' | 'host';
  text: string;
}

export class ServerOutput {
  private tail: TailLine[] = [];
  private stray: StrayStdout = { count: 0, first: [] };
  private launcher: LauncherLines | undefined;

  constructor(private readonly onLog: (entry: NewLogEntry) => void = () => undefined) {}

  /** Forgets everything (a start by a person). An automatic restart keeps the crash's last words. */
  reset(): void {
    this.tail = [];
    this.stray = { count: 0, first: [] };
  }

  /** Counting of stray stdout starts again for each process. */
  newProcess(launcher: LauncherLines | undefined): void {
    this.launcher = launcher;
    this.stray = { count: 0, first: [] };
  }

  stderrLine(line: string): void {
    if (this.launcher?.test(line) === true) {
      this.push({ from: 'launcher', text: line });
      this.onLog({
        source: 'launcher',
        level: /\b(?:error|ERR!)\b/.test(line) ? 'error' : 'info',
        text: line,
      });
      return;
    }
    this.push({ from: 'server', text: line });
    this.onLog({ source: 'stderr', level: 'info', text: line });
  }

  /** A stdout line that was not an MCP message: skipped, counted, the first few kept. */
  strayLine(line: string): void {
    this.stray.count++;
    if (this.stray.first.length < STRAY_KEPT) this.stray.first.push(line);
    if (this.stray.count <= STRAY_LOGGED) {
      this.onLog({ source: 'stdout', level: 'warning', text: line });
    } else if (this.stray.count % 1000 === 0) {
      this.onLog({
        source: 'host',
        level: 'warning',
        text: `${strayCountText(this.stray.count)} (only the first ${String(STRAY_LOGGED)} are logged)`,
      });
    }
  }

  /** A note from the host, shown with the server's output as "[host] …". */
  note(text: string, level?: LogLevel): void {
    this.push({ from: 'host', text });
    if (level !== undefined) this.onLog({ source: 'host', level, text });
  }

  /** The last lines for display: the launcher's and the host's labelled ("[npx] …", "[host] …"). */
  get stderrTail(): string[] {
    return this.tail.map((l) => {
      if (l.from === 'server') return l.text;
      return `[${l.from === 'host' ? 'host' : (this.launcher?.name ?? 'launcher')}] ${l.text}`;
    });
  }

  get strayStdout(): StrayStdout | undefined {
    return this.stray.count > 0 ? { count: this.stray.count, first: [...this.stray.first] } : undefined;
  }

  /**
   * The end of a failure message: the server's last stderr lines, then what
   * the launcher printed (labelled) when the server said nothing or the
   * launcher reported an error, then the first stray stdout lines.
   */
  lastWords(pendingStdout = ''): string {
    const parts: string[] = [];
    const own = distinctLast(this.lines('server'));
    if (own) parts.push(`Last stderr: ${own}`);
    const launcher = this.launcher;
    if (launcher) {
      const lines = this.lines('launcher');
      const errors = lines.filter((l) => /\b(?:error|ERR!)\b/.test(l));
      const said = distinctLast(own ? errors : lines);
      if (said) parts.push(`${launcher.name} (the launcher, not the server) printed: ${said}`);
    }
    if (this.stray.count > 0) {
      const quoted = this.stray.first.map((l) => `"${oneLine(l, 120)}"`).join(' | ');
      parts.push(
        `It wrote to stdout: ${quoted}${this.stray.count > this.stray.first.length ? ` (${strayCountText(this.stray.count)})` : ''}`,
      );
    }
    const pending = pendingStdout.trim();
    if (pending !== '') parts.push(`It is waiting after printing: "${oneLine(pending, 160)}"`);
    return parts.join('. ');
  }

  private lines(from: TailLine['from']): string[] {
    return this.tail.filter((l) => l.from === from).map((l) => l.text);
  }

  private push(line: TailLine): void {
    this.tail.push(line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
  }
}

/** "wrote 3 lines that are not MCP messages to stdout", as the server's detail and log say it. */
export function strayCountText(count: number): string {
  return `wrote ${String(count)} ${count === 1 ? 'line that is' : 'lines that are'} not MCP messages to stdout`;
}

/** The last three distinct lines, joined: repeated lines (the same complaint at each restart) are said once. */
function distinctLast(lines: readonly string[]): string {
  return [...new Set(lines.slice(-3))].join(' | ');
}
