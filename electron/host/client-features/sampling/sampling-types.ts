/* eslint-disable @typescript-eslint/no-deprecated --
 * Sampling is deprecated from protocol 2026-07-28 on (SEP-2577) but stays in
 * the spec for at least twelve months, and every 2025-era server that samples
 * uses it. These aliases are the one place that says so.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  SamplingMessage,
  SamplingMessageContentBlock,
  ToolChoice,
} from '@modelcontextprotocol/client';

export type SamplingParams = CreateMessageRequestParams;
export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools;
export type SamplingMessageIn = SamplingMessage;
export type SamplingBlock = SamplingMessageContentBlock;
export type SamplingToolChoice = ToolChoice;
