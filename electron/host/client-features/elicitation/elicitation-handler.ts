import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  Client,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
} from '@modelcontextprotocol/client';
import { buildForm, completeContent, describeErrors } from '../../../../shared/model/elicitation-form.js';
import { analyzeUrl } from '../../../../shared/model/elicitation-url.js';
import type { ConsentBroker } from '../../consent/consent-broker.js';
import { HostError, describeError } from '../../errors.js';

/** What elicitation needs from the host. */
export interface ElicitationServices {
  readonly consent: Pick<ConsentBroker, 'ask'>;
  /** Opens an http(s) URL in the system browser (Platform.openExternal). */
  readonly openExternal: (url: string) => Promise<void>;
  /** A URL elicitation the server reported complete (`notifications/elicitation/complete`). */
  readonly onUrlComplete?: ((server: string, elicitationId: string) => void) | undefined;
}

/**
 * Form mode: the person fills in a form drawn from the server's schema
 * (defaults applied) and accepts, declines or cancels. Whatever the answer
 * says, accepted content is re-checked here against the schema, and every
 * omitted field that has a default gets it (SEP-1034).
 */
export async function handleFormElicitation(
  params: ElicitRequestFormParams,
  server: string,
  services: ElicitationServices,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const form = buildForm(params.requestedSchema);
  if (!form.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, form.error);
  const answer = await askOrCancel(() =>
    services.consent.ask(
      'elicitationForm',
      server,
      { message: params.message, requestedSchema: params.requestedSchema },
      signal,
    ),
  );
  if (!answer) return { action: 'cancel' };
  if (answer.action !== 'accept') return { action: answer.action };
  const checked = completeContent(form.fields, answer.content);
  if (!checked.ok) {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `The form answer does not match the requested schema: ${describeErrors(checked.errors)}`,
    );
  }
  return { action: 'accept', content: checked.content };
}

/**
 * URL mode: the person sees the server, the full URL and its real domain
 * (with look-alike warnings); the browser opens only after their yes, and
 * never for a URL that is not http(s).
 */
export async function handleUrlElicitation(
  params: ElicitRequestURLParams,
  server: string,
  services: ElicitationServices,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const analysis = analyzeUrl(params.url);
  const answer = await askOrCancel(() =>
    services.consent.ask(
      'elicitationUrl',
      server,
      { message: params.message, url: params.url, elicitationId: params.elicitationId },
      signal,
    ),
  );
  if (!answer) return { action: 'cancel' };
  if (answer.action !== 'accept') return { action: answer.action };
  if (!analysis.openable) return { action: 'decline' };
  try {
    await services.openExternal(params.url);
  } catch (error) {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Could not open the browser: ${describeError(error)}`,
    );
  }
  return { action: 'accept' };
}

/** Registers the elicitation handlers (form and URL mode) on a connection's client. */
export function installElicitation(client: Client, server: string, services: ElicitationServices): void {
  client.setRequestHandler('elicitation/create', (request, ctx) => {
    const params = request.params;
    return params.mode === 'url'
      ? handleUrlElicitation(params, server, services, ctx.mcpReq.signal)
      : handleFormElicitation(params, server, services, ctx.mcpReq.signal);
  });
  // Gone in 2026-07-28 (the client learns the outcome by retrying); 2025-era servers send it.
  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    services.onUrlComplete?.(server, notification.params.elicitationId);
  });
}

/** A withdrawn request (the server cancelled or went away) ends as "cancel". */
async function askOrCancel<T>(ask: () => Promise<T>): Promise<T | undefined> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof HostError && error.code === 'cancelled') return undefined;
    throw error;
  }
}
