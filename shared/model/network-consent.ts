import { z } from 'zod';

/**
 * Consent kind "network": a sandboxed local server tries to reach a host it
 * was not allowed, through the host's filtering proxy. The person allows it
 * once (for this run of the server's process), always (written into the
 * server's `sandbox.allowHosts`) or denies it (remembered while the app runs).
 */

export const NetworkConsentPromptSchema = z.object({
  /** The host as the server named it (a name or an address). */
  host: z.string().min(1).max(300),
  port: z.number().int().min(1).max(65535),
  /** How the server asked: a tunnel (CONNECT, usually HTTPS) or a plain HTTP request. */
  via: z.enum(['connect', 'http']),
  /** What "always" would write into `sandbox.allowHosts` (absent: not writable, e.g. an IPv6 address). */
  alwaysEntry: z.string().max(310).optional(),
});
export type NetworkConsentPrompt = z.infer<typeof NetworkConsentPromptSchema>;

export const NetworkConsentDecisionSchema = z.enum(['allow-once', 'always', 'deny']);
export type NetworkConsentDecision = z.infer<typeof NetworkConsentDecisionSchema>;

export const NetworkConsentAnswerSchema = z.object({ decision: NetworkConsentDecisionSchema }).strict();
