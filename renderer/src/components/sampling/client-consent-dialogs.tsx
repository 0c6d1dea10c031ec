import { useClientConsents } from '../../store/client-consents-store.js';
import { ElicitationFormDialog } from '../elicitation/elicitation-form-dialog.js';
import { ElicitationUrlDialog } from '../elicitation/elicitation-url-dialog.js';
import { SamplingDialog } from './sampling-dialog.js';
import { SamplingReviewDialog } from './sampling-review-dialog.js';

/**
 * The oldest waiting sampling or elicitation request, as its dialog. One at
 * a time; the next appears when the host says this one was resolved.
 */
export function ClientConsentDialogs() {
  const request = useClientConsents((s) => s.pending[0]);
  const answering = useClientConsents((s) => s.answering);
  const { answer } = useClientConsents((s) => s.actions);
  if (!request) return null;
  const props = {
    busy: answering === request.id,
    onAnswer: (value: unknown) => {
      void answer(request.id, value);
    },
  };
  switch (request.kind) {
    case 'sampling':
      return <SamplingDialog key={request.id} request={request} {...props} />;
    case 'samplingReview':
      return <SamplingReviewDialog key={request.id} request={request} {...props} />;
    case 'elicitationForm':
      return <ElicitationFormDialog key={request.id} request={request} {...props} />;
    case 'elicitationUrl':
      return <ElicitationUrlDialog key={request.id} request={request} {...props} />;
  }
}
