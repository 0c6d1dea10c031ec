import type { CallToolResult } from '@modelcontextprotocol/client';
import { ContentBlockSchema } from '../../../shared/model/server.js';
import type { ContentBlock, ToolCallResult } from '../../../shared/model/server.js';

/**
 * Turns a tools/call result into the shape the UI renders. Every block is
 * re-validated against our own schema; a block we do not know is kept as JSON
 * rather than dropped, and binary resources stay in the host (only their size
 * is shown).
 */
export function toToolCallResult(result: CallToolResult, durationMs: number): ToolCallResult {
  const content: ContentBlock[] = result.content.map(toBlock);
  return {
    isError: result.isError === true,
    content,
    ...(result.structuredContent !== undefined
      ? { structuredContent: JSON.stringify(result.structuredContent, null, 2) }
      : {}),
    durationMs,
  };
}

/** One MCP content block (tool result, prompt message) in the shape the UI renders. */
export function toBlock(block: CallToolResult['content'][number]): ContentBlock {
  const candidate: unknown =
    block.type === 'resource'
      ? {
          type: 'resource',
          uri: block.resource.uri,
          mimeType: block.resource.mimeType,
          ...('text' in block.resource && typeof block.resource.text === 'string'
            ? { text: block.resource.text }
            : {}),
          ...('blob' in block.resource && typeof block.resource.blob === 'string'
            ? { blobBytes: Math.floor((block.resource.blob.length * 3) / 4) }
            : {}),
        }
      : block;
  const parsed = ContentBlockSchema.safeParse(candidate);
  return parsed.success ? parsed.data : { type: 'unknown', json: JSON.stringify(block, null, 2) };
}
