import type {
  DocumentBlockParam,
  ImageBlockParam,
  RedactedThinkingBlockParam,
  ServerToolUseBlockParam,
  TextBlockParam,
  ThinkingBlockParam,
  Tool,
  ToolResultBlockParam,
  ToolSearchToolBm25_20251119,
  ToolSearchToolRegex20251119,
  ToolSearchToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  BetaCompactionBlockParam,
  BetaImageBlockParam,
  BetaRedactedThinkingBlockParam,
  BetaRequestDocumentBlock,
  BetaServerToolUseBlockParam,
  BetaTextBlockParam,
  BetaThinkingBlockParam,
  BetaTool,
  BetaToolResultBlockParam,
  BetaToolSearchToolBm25_20251119,
  BetaToolSearchToolRegex20251119,
  BetaToolSearchToolResultBlockParam,
  BetaToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';

/**
 * What the host sends to the Messages API, typed so that one value fits both
 * the standard endpoint (`client.messages`) and the beta one
 * (`client.beta.messages`, needed only for context management and
 * compaction): each kind is the intersection of the SDK's two types for it.
 * The request builder produces these; no cast is needed on either path.
 */
export type WireTool =
  | (Tool & BetaTool)
  | (ToolSearchToolBm25_20251119 & BetaToolSearchToolBm25_20251119)
  | (ToolSearchToolRegex20251119 & BetaToolSearchToolRegex20251119);

export type WireText = TextBlockParam & BetaTextBlockParam;
export type WireImage = ImageBlockParam & BetaImageBlockParam;
export type WireDocument = DocumentBlockParam & BetaRequestDocumentBlock;
export type WireToolResult = ToolResultBlockParam & BetaToolResultBlockParam;

export type WireBlock =
  | WireText
  | WireImage
  | WireDocument
  | (ThinkingBlockParam & BetaThinkingBlockParam)
  | (RedactedThinkingBlockParam & BetaRedactedThinkingBlockParam)
  | (ToolUseBlockParam & BetaToolUseBlockParam)
  | WireToolResult
  | (ServerToolUseBlockParam & BetaServerToolUseBlockParam)
  | (ToolSearchToolResultBlockParam & BetaToolSearchToolResultBlockParam);

/** A compaction block goes only to the beta endpoint. */
export type WireCompaction = BetaCompactionBlockParam;

export interface WireMessage {
  role: 'user' | 'assistant';
  content: (WireBlock | WireCompaction)[];
}

/** The same history without compaction blocks, for the standard endpoint. */
export interface StandardWireMessage {
  role: 'user' | 'assistant';
  content: WireBlock[];
}

/** Drops compaction blocks (the standard endpoint does not know them). */
export function withoutCompaction(messages: readonly WireMessage[]): StandardWireMessage[] {
  return messages
    .map((m) => ({ role: m.role, content: m.content.filter((b): b is WireBlock => b.type !== 'compaction') }))
    .filter((m) => m.content.length > 0);
}
