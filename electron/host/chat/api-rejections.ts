import { APIError } from '@anthropic-ai/sdk';

/**
 * Features the host uses that an endpoint or a model may not have: an
 * Anthropic-compatible endpoint that does not know the tool search tool, a
 * model without adaptive thinking, a proxy that refuses beta features. When
 * the API refuses a request because of one of them, the turn goes on
 * without it (with one line in the conversation) instead of failing.
 */
export type OptionalFeature = 'tool_search' | 'thinking' | 'context_management';

/** What the request used, so a refusal can be pinned on one feature. */
export interface RequestFeatures {
  toolSearch: boolean;
  thinking: boolean;
  contextManagement: boolean;
}

const FEATURE_WORDS: Record<OptionalFeature, RegExp> = {
  tool_search: /tool[_ -]?search|defer_loading|tool_reference|advanced-tool-use/i,
  thinking: /thinking|effort|output_config|adaptive/i,
  context_management: /context[_ -]?management|compact|clear_tool_uses|anthropic-beta|\bbetas?\b/i,
};

/** The request-shape errors an endpoint answers when it does not know a field or a tool type. */
const REFUSAL_STATUSES = new Set([400, 404, 422]);

/** The feature this refusal is about, if the request used it and the error names it. */
export function refusedFeature(error: unknown, used: RequestFeatures): OptionalFeature | undefined {
  if (!(error instanceof APIError) || !REFUSAL_STATUSES.has(Number(error.status))) return undefined;
  const text = `${error.message} ${JSON.stringify(error.error ?? '')}`;
  if (used.toolSearch && FEATURE_WORDS.tool_search.test(text)) return 'tool_search';
  if (used.contextManagement && FEATURE_WORDS.context_management.test(text)) return 'context_management';
  if (used.thinking && FEATURE_WORDS.thinking.test(text)) return 'thinking';
  return undefined;
}

/** The API refused the request because the conversation does not fit the model's context window. */
export function isContextTooLong(error: unknown): boolean {
  if (!(error instanceof APIError) || Number(error.status) !== 400) return false;
  const text = `${error.message} ${JSON.stringify(error.error ?? '')}`;
  return /prompt is too long|context (window|length)|too many (input )?tokens|input is too long|exceeds? the (maximum|context)/i.test(
    text,
  );
}

/** The one line the conversation shows when the turn goes on without a feature. */
export function fallbackNotice(feature: OptionalFeature, detail: { tools?: number; model: string }): string {
  switch (feature) {
    case 'tool_search':
      return `This endpoint or model does not take tool search, so all ${String(detail.tools ?? 0)} tool definitions are sent with each request.`;
    case 'thinking':
      return `${detail.model} does not take adaptive thinking here, so Claude answers without thinking.`;
    case 'context_management':
      return `This endpoint does not take context management, so old tool results are not cleared and the conversation is not compacted by the API.`;
  }
}
