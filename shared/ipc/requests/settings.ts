import { z } from 'zod';
import {
  ModelListSchema,
  PinnedToolSchema,
  SettingsSchema,
  UpdateSettingsSchema,
} from '../../model/settings.js';
import { none } from './common.js';

// Settings of the chat with Claude. The API key goes in, never out: settings report only "set" and a hint.
export const settingsRequests = {
  getSettings: { params: none, result: SettingsSchema },
  updateSettings: { params: UpdateSettingsSchema, result: SettingsSchema },
  setApiKey: {
    params: z.object({ key: z.string().trim().min(1).max(1024) }).strict(),
    result: SettingsSchema,
  },
  clearApiKey: { params: none, result: SettingsSchema },
  /** Models from the models API when reachable, else a default list (source tells which). */
  listModels: { params: none, result: ModelListSchema },
  /** Pins a tool for the chat (its definition is always sent, never deferred by tool search). */
  setToolPinned: {
    params: PinnedToolSchema.extend({ pinned: z.boolean() }).strict(),
    result: SettingsSchema,
  },
} as const;
