import type { ContentBlock, Usage as ApiUsage } from '@anthropic-ai/sdk/resources/messages';
import type { BetaContentBlock, BetaUsage } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ChatBlock, Usage } from '../../../shared/model/chat.js';
import { usageOf } from './pricing.js';
import type { ToolNameTable, ToolRef } from './tool-names.js';

/** A block of a response from either endpoint (standard or beta). */
export type ResponseBlock = ContentBlock | BetaContentBlock;

export interface ConvertOptions {
  table: ToolNameTable;
  /** API names of the tools that were deferred in this request (a call to one was found by search). */
  deferred: ReadonlySet<string>;
}

/**
 * The blocks of Claude's answer as the conversation stores them: text,
 * thinking (with its signature, to send back), tool searches (as the tools
 * they found), tool calls (mapped back to server and tool) and compaction
 * summaries (kept verbatim). Blocks of kinds the host never asks for are
 * skipped.
 */
export function chatBlocksOf(content: readonly ResponseBlock[], options: ConvertOptions): ChatBlock[] {
  const blocks: ChatBlock[] = [];
  const searches = new Map<string, Extract<ChatBlock, { type: 'tool_search' }>>();
  for (const block of content) {
    switch (block.type) {
      case 'text':
        blocks.push({ type: 'text', text: block.text });
        break;
      case 'thinking':
        blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        blocks.push({ type: 'redacted_thinking', data: block.data });
        break;
      case 'tool_use': {
        const ref: ToolRef = options.table.resolve(block.name) ?? { server: '', tool: block.name };
        blocks.push({
          type: 'tool_use',
          id: block.id,
          server: ref.server,
          tool: ref.tool,
          inputJson: JSON.stringify(block.input ?? {}),
          ...(options.deferred.has(block.name) ? { foundBySearch: true } : {}),
        });
        break;
      }
      case 'server_tool_use': {
        if (block.name !== 'tool_search_tool_bm25' && block.name !== 'tool_search_tool_regex') break;
        const search: Extract<ChatBlock, { type: 'tool_search' }> = {
          type: 'tool_search',
          id: block.id,
          variant: block.name === 'tool_search_tool_bm25' ? 'bm25' : 'regex',
          inputJson: JSON.stringify(block.input ?? {}),
          found: [],
        };
        searches.set(block.id, search);
        blocks.push(search);
        break;
      }
      case 'tool_search_tool_result': {
        const search = searches.get(block.tool_use_id);
        if (!search) break;
        if (block.content.type === 'tool_search_tool_result_error') search.error = block.content.error_code;
        else {
          search.found = block.content.tool_references.flatMap((r) => {
            const ref = options.table.resolve(r.tool_name);
            return ref ? [ref] : [];
          });
        }
        break;
      }
      case 'compaction':
        blocks.push({ type: 'compaction', summary: block.content, raw: JSON.stringify(block) });
        break;
      default:
        break;
    }
  }
  return blocks;
}

/**
 * Tokens and estimated cost of one response. Thinking tokens are part of the
 * output (and its price); the API reports them apart, and so does the UI.
 * A compaction's own tokens are not in the top-level fields: they are added,
 * while `contextTokens` keeps the size of the context Claude answered from.
 */
export function responseUsage(model: string, usage: ApiUsage | BetaUsage): Usage {
  let total = usageOf(model, usage);
  const context =
    total.inputTokens + total.cacheReadInputTokens + total.cacheCreationInputTokens + total.outputTokens;
  const iterations = 'iterations' in usage ? (usage.iterations ?? []) : [];
  for (const iteration of iterations) {
    if (iteration.type !== 'compaction') continue;
    const extra = usageOf(model, iteration);
    total = {
      ...total,
      inputTokens: total.inputTokens + extra.inputTokens,
      outputTokens: total.outputTokens + extra.outputTokens,
      cacheCreationInputTokens: total.cacheCreationInputTokens + extra.cacheCreationInputTokens,
      cacheReadInputTokens: total.cacheReadInputTokens + extra.cacheReadInputTokens,
      costUsd: total.costUsd + extra.costUsd,
    };
  }
  const thinking = usage.output_tokens_details?.thinking_tokens;
  return {
    ...total,
    ...(thinking !== undefined && thinking > 0 ? { thinkingTokens: thinking } : {}),
    contextTokens: context,
  };
}
