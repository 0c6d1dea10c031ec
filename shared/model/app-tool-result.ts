import type { AppToolResult } from './apps.js';
import type { ContentBlock } from './server.js';

/**
 * A tool result as the host keeps it (our content blocks, structured content
 * as JSON text) turned back into the MCP `CallToolResult` an app expects.
 * Used for live results, for an app's own calls and for stored results when
 * a conversation is reopened. Binary embedded resources stay in the host, so
 * an app gets their size as text instead of their bytes.
 */
export function toAppToolResult(result: {
  isError: boolean;
  content: readonly ContentBlock[];
  structuredContent?: string | undefined;
}): AppToolResult {
  const structured = parseObject(result.structuredContent);
  return {
    content: result.content.map(toMcpBlock),
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    ...(result.isError ? { isError: true } : {}),
  };
}

function toMcpBlock(block: ContentBlock): Record<string, unknown> {
  switch (block.type) {
    case 'text':
    case 'image':
    case 'audio':
    case 'resource_link':
      return { ...block };
    case 'resource':
      if (block.text !== undefined) {
        return {
          type: 'resource',
          resource: { uri: block.uri, text: block.text, ...mime(block.mimeType) },
        };
      }
      return { type: 'text', text: `[Binary resource ${block.uri}, ${String(block.blobBytes ?? 0)} bytes]` };
    case 'unknown': {
      const parsed = parseObject(block.json);
      return parsed ?? { type: 'text', text: block.json };
    }
  }
}

const mime = (mimeType: string | undefined) => (mimeType !== undefined ? { mimeType } : {});

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
