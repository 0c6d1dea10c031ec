import { z } from 'zod';
import { ServerNameSchema } from '../../model/config.js';
import { ConsentIdSchema, ConsentRequestSchema } from '../../model/consent.js';
import { AuditEntrySchema } from '../../model/chat.js';
import { ConsentRulesSchema, ServerTrustScopeSchema } from '../../model/consent-rules.js';
import { ToolChangeSchema } from '../../model/tool-pins.js';
import { none } from './common.js';

// Consent: pending decisions, rules and the audit trail.
export const consentRequests = {
  /** The consent requests waiting for an answer, oldest first (after a reconnect). */
  listConsents: { params: none, result: z.array(ConsentRequestSchema) },
  /**
   * The person's decision on a consent request the host issued. The host
   * checks the id (issued, still pending) and the answer's shape for its kind.
   */
  answerConsent: {
    params: z.object({ id: ConsentIdSchema, answer: z.unknown() }).strict(),
    result: z.null(),
  },
  /**
   * Every consent rule (this conversation, this tool, the whole server, the
   * read-only opt-in), each with the server identity it is bound to, and the
   * store's problem when no rule can be trusted.
   */
  listPolicies: { params: none, result: ConsentRulesSchema },
  revokePolicy: { params: z.object({ id: z.string().min(1).max(64) }).strict(), result: z.null() },
  /** Consent decisions for tool calls, newest first. */
  listAudit: {
    params: z
      .object({
        limit: z.number().int().min(1).max(1000).default(200),
        beforeId: z.number().int().optional(),
      })
      .strict(),
    result: z.array(AuditEntrySchema),
  },
  /**
   * Turns a server-wide rule on or off: "trust this server" (all its tools) or
   * "run the tools it marks read-only without asking". The host binds it to
   * the server's current identity; off revokes that scope whatever it is bound to.
   */
  setServerTrust: {
    params: z
      .object({ server: ServerNameSchema, scope: ServerTrustScopeSchema, enabled: z.boolean() })
      .strict(),
    result: ConsentRulesSchema,
  },
  /**
   * The tools of a connected server whose definition changed since it was
   * pinned, or that appeared after its first listing, each with its diff.
   */
  listToolChanges: {
    params: z.object({ server: ServerNameSchema }).strict(),
    result: z.array(ToolChangeSchema),
  },
  /**
   * The person looked at a changed tool and accepts the definition with this
   * digest (the one shown): rules apply to it again. Recorded in the audit
   * trail. Refused when the tool now lists another definition. Returns the
   * server's remaining changes.
   */
  acceptToolChange: {
    params: z
      .object({
        server: ServerNameSchema,
        tool: z.string().min(1).max(512),
        digest: z.string().regex(/^[0-9a-f]{64}$/),
      })
      .strict(),
    result: z.array(ToolChangeSchema),
  },
} as const;
