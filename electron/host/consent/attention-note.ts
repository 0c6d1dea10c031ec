import type { ConsentRequest } from '../../../shared/model/consent.js';
import type { AttentionNote } from '../platform.js';

const MAX_NAME = 80;

/**
 * A server-supplied name as a notification may show it: control and
 * invisible formatting characters (direction overrides among them) removed,
 * so "evil" cannot display as "live", and long names cut.
 */
function plain(text: string): string {
  const clean = text.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return clean.length > MAX_NAME ? `${clean.slice(0, MAX_NAME - 1)}…` : clean;
}

/** What the system notification says about a consent request waiting for the person. */
export function attentionNote(request: ConsentRequest): AttentionNote {
  const server = plain(request.server);
  switch (request.kind) {
    case 'tool':
      return {
        title: 'Approval needed',
        body: `Claude wants to run “${plain(request.prompt.tool)}” on ${server}.`,
      };
    case 'sampling':
      return { title: 'Approval needed', body: `${server} asks to use Claude.` };
    case 'samplingReview':
      return {
        title: 'Review needed',
        body: `Claude answered ${server}'s request; review it before it is sent.`,
      };
    case 'elicitationForm':
      return { title: 'Information requested', body: `${server} asks you to fill in a form.` };
    case 'elicitationUrl':
      return { title: 'Link to open', body: `${server} asks you to open a link.` };
    case 'network':
      return {
        title: 'Network access',
        body: `${server} wants to connect to ${plain(request.prompt.host)}:${String(request.prompt.port)}.`,
      };
  }
}
