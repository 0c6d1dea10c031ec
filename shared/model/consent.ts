import { z } from 'zod';
import { ToolAnnotationsSchema } from './server.js';
import { IdentityPartsSchema } from './consent-rules.js';
import { ToolChangeSchema } from './tool-pins.js';
import {
  SamplingAnswerSchema,
  SamplingPromptSchema,
  SamplingReviewAnswerSchema,
  SamplingReviewPromptSchema,
} from './sampling-consent.js';
import {
  ElicitationFormAnswerSchema,
  ElicitationFormPromptSchema,
  ElicitationUrlAnswerSchema,
  ElicitationUrlPromptSchema,
} from './elicitation-consent.js';
import { NetworkConsentAnswerSchema, NetworkConsentPromptSchema } from './network-consent.js';

/**
 * Consent: every model-initiated tool call, sampling request and elicitation
 * waits for the person's decision, which the host enforces. The host issues a
 * request with an unguessable id; the renderer can only answer ids the host
 * issued, once, with an answer of the shape that kind expects.
 *
 * Each kind is one row of `consentKinds`: the schema of what the person is
 * shown (`prompt`) and the schema of their answer. Adding a kind = a row here,
 * a member of `ConsentRequestSchema` below, and a dialog in the renderer.
 */

/** Ids are 128-bit random values in base64url; anything else is forged. */
export const ConsentIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, 'Not a consent id');

// ── kind "tool": a tool call the model wants to make ─────────────────────────

export const ToolConsentPromptSchema = z.object({
  tool: z.string(),
  /** The tool's human title, when it has one. */
  title: z.string().optional(),
  description: z.string().optional(),
  /** The arguments, pretty-printed JSON. */
  argumentsJson: z.string(),
  /** The server's own claims. Shown as hints; never trusted for security. */
  annotations: ToolAnnotationsSchema.optional(),
  /** Set when an MCP App asks (not Claude): the app's `ui://` resource. */
  requestedByApp: z.object({ resourceUri: z.string() }).optional(),
  /** True for a call outside any conversation (an app in the Servers view): nothing can last "for this conversation". */
  outsideConversation: z.boolean().optional(),
  /**
   * Present when the server's claims differ from those of the last call of
   * this tool: what they were then (`{}` when it made none).
   */
  annotationsChanged: z.object({ before: ToolAnnotationsSchema }).optional(),
  /**
   * Present when the tool's definition differs from the one pinned (or the
   * tool is new): the diff. No rule applied; allowing accepts this definition.
   */
  definitionChange: ToolChangeSchema.optional(),
  /** What runs behind the server's name: what a rule made here would be bound to. */
  identity: IdentityPartsSchema.optional(),
  /**
   * Why no rule can be made now (the rule store is damaged or from a newer
   * version): only "allow once" and "deny" are offered.
   */
  rulesUnavailable: z.string().optional(),
});

/**
 * Allow once; allow this tool for the rest of this conversation; always allow
 * this tool; trust every tool of this server; run the tools this server marks
 * read-only without asking (trusting its claim); or deny. Every "allow"
 * answer allows this call; the others also make a rule bound to the server's
 * identity.
 */
export const ToolConsentDecisionSchema = z.enum([
  'allow-once',
  'allow-conversation',
  'always-allow',
  'trust-server',
  'allow-read-only',
  'deny',
]);
export type ToolConsentDecision = z.infer<typeof ToolConsentDecisionSchema>;

export const ToolConsentAnswerSchema = z.object({ decision: ToolConsentDecisionSchema }).strict();

// ── the table ────────────────────────────────────────────────────────────────

export const consentKinds = {
  tool: { prompt: ToolConsentPromptSchema, answer: ToolConsentAnswerSchema },
  /** A server's sampling request, before it goes to Claude (editable). */
  sampling: { prompt: SamplingPromptSchema, answer: SamplingAnswerSchema },
  /** Claude's completion for a sampling request, before it goes back to the server. */
  samplingReview: { prompt: SamplingReviewPromptSchema, answer: SamplingReviewAnswerSchema },
  /** A server asks the person to fill in a form. */
  elicitationForm: { prompt: ElicitationFormPromptSchema, answer: ElicitationFormAnswerSchema },
  /** A server asks the person to open a URL in the system browser. */
  elicitationUrl: { prompt: ElicitationUrlPromptSchema, answer: ElicitationUrlAnswerSchema },
  /** A sandboxed server tries to reach a host it was not allowed. */
  network: { prompt: NetworkConsentPromptSchema, answer: NetworkConsentAnswerSchema },
} as const;

export type ConsentKinds = typeof consentKinds;
export type ConsentKind = keyof ConsentKinds;
export type ConsentPrompt<K extends ConsentKind> = z.output<ConsentKinds[K]['prompt']>;
export type ConsentAnswer<K extends ConsentKind> = z.output<ConsentKinds[K]['answer']>;

const requestOf = <K extends ConsentKind>(kind: K) =>
  z.object({
    id: ConsentIdSchema,
    kind: z.literal(kind),
    /** The server the request concerns (whose tool, or which server asked). */
    server: z.string(),
    /** Epoch ms. */
    createdAt: z.number(),
    // Without the cast TypeScript gives every member the union of all kinds' prompts,
    // so narrowing a request by kind would not narrow its prompt (lint disagrees; tsc needs it).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    prompt: consentKinds[kind].prompt as ConsentKinds[K]['prompt'],
  });

/** A pending decision as the renderer sees it. */
export const ConsentRequestSchema = z.discriminatedUnion('kind', [
  requestOf('tool'),
  requestOf('sampling'),
  requestOf('samplingReview'),
  requestOf('elicitationForm'),
  requestOf('elicitationUrl'),
  requestOf('network'),
]);
export type ConsentRequest = z.output<typeof ConsentRequestSchema>;

// The union above must have one member per row of the table.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const CONSENT_UNION_MATCHES_TABLE: Same<ConsentRequest['kind'], ConsentKind> = true;

/** A pending request of one kind (for the dialogs, which each handle one). */
export type ConsentRequestOf<K extends ConsentKind> = Extract<ConsentRequest, { kind: K }>;

export const ConsentOutcomeSchema = z.enum(['answered', 'withdrawn']);
export type ConsentOutcome = z.infer<typeof ConsentOutcomeSchema>;

export const ConsentResolvedSchema = z.object({ id: z.string(), outcome: ConsentOutcomeSchema });
export type ConsentResolved = z.infer<typeof ConsentResolvedSchema>;
