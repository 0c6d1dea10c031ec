import { z } from 'zod';
import { ConfigFileSchema, blockedEnvMessage, blockedEnvNames, isStdioConfig } from './config.js';
import type { ConfigFile } from './config.js';

/** One problem in the configuration text, placed where the person can find it. */
export const ConfigIssueSchema = z.object({
  /** Key path such as "mcpServers.files.args.0", or "" for the whole file. */
  path: z.string(),
  message: z.string(),
  /** 1-based line of the offending value (or of the syntax error). */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type ConfigIssue = z.infer<typeof ConfigIssueSchema>;

export type ConfigTextCheck = { ok: true; config: ConfigFile } | { ok: false; issues: ConfigIssue[] };

/**
 * Checks configuration text the way the host does before writing it: JSON
 * syntax first (with the line of the error), then the schema (each issue with
 * its key path and the line of that key). Pure, so the editor can run it on
 * every keystroke and the host runs it again before anything is written.
 */
export function checkConfigText(text: string): ConfigTextCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Invalid JSON';
    return {
      ok: false,
      issues: [{ path: '', message: `Invalid JSON: ${message}`, ...syntaxPosition(text, message) }],
    };
  }
  const parsed = ConfigFileSchema.safeParse(json);
  const lines = keyLines(text);
  if (parsed.success) {
    // The add form refuses these variables; so does every other way in.
    const blocked = Object.entries(parsed.data.mcpServers).flatMap(([name, entry]) =>
      isStdioConfig(entry)
        ? blockedEnvNames(entry.env).map((key) => {
            const keys = ['mcpServers', name, 'env', key];
            const line = nearestLine(lines, keys);
            return {
              path: keys.join('.'),
              message: blockedEnvMessage([key]),
              ...(line !== undefined ? { line } : {}),
            };
          })
        : [],
    );
    return blocked.length > 0 ? { ok: false, issues: blocked } : { ok: true, config: parsed.data };
  }
  const issues = parsed.error.issues
    .flatMap((issue) => branchIssues(issue, json))
    .map((issue) => {
      const keys = issue.path.map(String);
      const line = nearestLine(lines, keys);
      return { path: keys.join('.'), message: issue.message, ...(line !== undefined ? { line } : {}) };
    });
  return { ok: false, issues };
}

interface PlainIssue {
  path: PropertyKey[];
  message: string;
}

/**
 * A server entry matches neither the stdio nor the remote shape: report the
 * problems of the shape it was meant to be (it has "url" → remote), with
 * their full key paths, instead of one vague "invalid union".
 */
function branchIssues(issue: z.core.$ZodIssue, json: unknown): PlainIssue[] {
  if (issue.code !== 'invalid_union' || issue.errors.length !== 2) return [issue];
  const entry = valueAt(json, issue.path);
  const remote = typeof entry === 'object' && entry !== null && 'url' in entry && !('command' in entry);
  const branch = issue.errors[remote ? 1 : 0] ?? [];
  if (branch.length === 0) return [issue];
  return branch.map((inner) => ({ path: [...issue.path, ...inner.path], message: inner.message }));
}

function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let value = json;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Line and column of a JSON.parse error, from either V8 message style. */
function syntaxPosition(text: string, message: string): { line?: number; column?: number } {
  const lineCol = /line (\d+) column (\d+)/.exec(message);
  if (lineCol) return { line: Number(lineCol[1]), column: Number(lineCol[2]) };
  const position = /position (\d+)/.exec(message);
  if (position) return lineColumnAt(text, Number(position[1]));
  if (/end of (JSON|data) input/i.test(message)) return lineColumnAt(text, text.length);
  return {};
}

function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** The line each value starts on, keyed by its path joined with NUL. */
function keyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const skip = () => {
    while (i < text.length && /[\s,:]/.test(text.charAt(i))) {
      if (text.charAt(i) === '\n') line++;
      i++;
    }
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text.charAt(i) !== '"') i += text.charAt(i) === '\\' ? 2 : 1;
    i++;
    try {
      return String(JSON.parse(text.slice(start, i)));
    } catch {
      return text.slice(start + 1, i - 1);
    }
  };
  const value = (path: string[]): void => {
    skip();
    lines.set(path.join('\0'), line);
    const c = text.charAt(i);
    if (c === '{') {
      i++;
      for (;;) {
        skip();
        if (i >= text.length || text.charAt(i) === '}') break;
        if (text.charAt(i) !== '"') return;
        const key = readString();
        skip();
        value([...path, key]);
      }
      i++;
    } else if (c === '[') {
      i++;
      for (let index = 0; ; index++) {
        skip();
        if (i >= text.length || text.charAt(i) === ']') break;
        value([...path, String(index)]);
      }
      i++;
    } else if (c === '"') {
      readString();
    } else {
      while (i < text.length && !/[\s,\]}]/.test(text.charAt(i))) i++;
    }
  };
  value([]);
  return lines;
}

/** The line of the deepest existing prefix of `path` (a missing key is reported at its parent). */
function nearestLine(lines: Map<string, number>, path: string[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const line = lines.get(path.slice(0, n).join('\0'));
    if (line !== undefined) return line;
  }
  return undefined;
}
