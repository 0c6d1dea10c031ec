import { z } from 'zod';

/**
 * Consent rules: what lets a tool call run without asking. Every rule is
 * bound to a server's name AND its identity (what the name stands for: the
 * program and how it is started, or the URL), so a different program added
 * under the same name never inherits the trust given to the old one.
 */

/** What a server name stands for. A change to any of these is a different server. */
export const IdentityPartsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('stdio'),
    command: z.string(),
    args: z.array(z.string()),
    /** Names only, sorted: values (often secrets) are never part of an identity. */
    envNames: z.array(z.string()),
    /** The working folder, when set: a relative script path means another program elsewhere. */
    cwd: z.string().optional(),
  }),
  z.object({ kind: z.literal('remote'), url: z.string() }),
]);
export type IdentityParts = z.infer<typeof IdentityPartsSchema>;

/** A server identity: its parts and the SHA-256 (hex) of their canonical JSON. */
export const ServerIdentitySchema = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  parts: IdentityPartsSchema,
});
export type ServerIdentity = z.infer<typeof ServerIdentitySchema>;

/**
 * How far a rule reaches:
 * - `conversation`: this tool, in one conversation ("Allow for this conversation");
 * - `tool`: this tool, everywhere ("Always allow this tool");
 * - `server`: every tool of the server ("Trust this server");
 * - `read-only`: the tools the server marks read-only (`readOnlyHint`), as it says at each call.
 */
export const RuleScopeSchema = z.enum(['conversation', 'tool', 'server', 'read-only']);
export type RuleScope = z.infer<typeof RuleScopeSchema>;

export const ConsentRuleSchema = z.object({
  id: z.string(),
  server: z.string(),
  scope: RuleScopeSchema,
  /** For `conversation` and `tool` rules. */
  tool: z.string().optional(),
  /** For `conversation` rules. */
  conversationId: z.string().optional(),
  conversationTitle: z.string().optional(),
  /**
   * What the rule is bound to. Absent for an "always allow" kept from a
   * version that did not bind rules: such a rule never applies.
   */
  identity: ServerIdentitySchema.optional(),
  createdAt: z.number(),
});
export type ConsentRule = z.infer<typeof ConsentRuleSchema>;

/** Every rule, and why none applies when the store cannot be trusted. */
export const ConsentRulesSchema = z.object({
  rules: z.array(ConsentRuleSchema),
  /**
   * Set when the rule store is damaged or was written by a newer version of
   * the app: then no rule applies and every call asks.
   */
  problem: z.string().optional(),
});
export type ConsentRules = z.infer<typeof ConsentRulesSchema>;

/** Which rule let a call run without asking. */
export const RuleRefSchema = z.object({ id: z.string(), scope: RuleScopeSchema });
export type RuleRef = z.infer<typeof RuleRefSchema>;

/** Server-wide rules the person can switch on or off from the server's page or Settings. */
export const ServerTrustScopeSchema = z.enum(['server', 'read-only']);
export type ServerTrustScope = z.infer<typeof ServerTrustScopeSchema>;
