import { createHash } from 'node:crypto';

/** What the Messages API accepts as a tool name. */
export const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;
const HASH_CHARS = 8;

export interface ToolRef {
  server: string;
  tool: string;
}

/**
 * Names the model sees for the tools of many servers: "<server>__<tool>",
 * with characters the API refuses replaced by "_". When that changes the
 * name, makes it too long, or makes two tools look alike, a short hash of
 * the real (server, tool) pair is appended, so every API name maps back to
 * exactly one tool. The result depends only on the set of tools, not their
 * order, so names stay stable from one request to the next.
 */
export class ToolNameTable {
  private readonly byApiName = new Map<string, ToolRef>();
  private readonly byTool = new Map<string, string>();

  constructor(tools: readonly ToolRef[]) {
    const bases = tools.map((ref) => ({
      ref,
      raw: `${ref.server}__${ref.tool}`,
      base: sanitize(`${ref.server}__${ref.tool}`),
    }));
    const baseCount = new Map<string, number>();
    for (const { base } of bases) baseCount.set(base, (baseCount.get(base) ?? 0) + 1);
    for (const { ref, raw, base } of bases) {
      const plain = base === raw && base.length <= MAX && baseCount.get(base) === 1;
      const name = plain ? base : `${base.slice(0, MAX - HASH_CHARS - 1)}_${shortHash(ref)}`;
      this.byApiName.set(name, ref);
      this.byTool.set(key(ref), name);
    }
  }

  apiName(ref: ToolRef): string | undefined {
    return this.byTool.get(key(ref));
  }

  resolve(apiName: string): ToolRef | undefined {
    return this.byApiName.get(apiName);
  }

  entries(): [string, ToolRef][] {
    return [...this.byApiName.entries()];
  }
}

function sanitize(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? 'tool' : cleaned;
}

function shortHash(ref: ToolRef): string {
  return createHash('sha256').update(key(ref)).digest('hex').slice(0, HASH_CHARS);
}

const key = (ref: ToolRef): string => `${ref.server}\u0000${ref.tool}`;
