import type { ComponentType } from 'react';
import type { ConsentKind } from '../../../../shared/model/consent.js';
import type { ConsentDialogProps } from './dialog-props.js';
import { useConsent } from './consent-context.js';
import { Deferred } from '../../common/on-demand.js';
import { ElicitationFormDialog, ElicitationUrlDialog } from '../elicitation/lazy.js';
import { SamplingDialog, SamplingReviewDialog } from '../sampling/lazy.js';
import { NetworkConsentDialog, ToolConsentDialog } from './lazy.js';

/**
 * One dialog per consent kind. Adding a kind to shared/model/consent.ts makes
 * this table fail to compile until its dialog is added here; nothing else in
 * this file changes.
 */
const dialogs: { [K in ConsentKind]: ComponentType<ConsentDialogProps<K>> } = {
  tool: ToolConsentDialog,
  sampling: SamplingDialog,
  samplingReview: SamplingReviewDialog,
  elicitationForm: ElicitationFormDialog,
  elicitationUrl: ElicitationUrlDialog,
  network: NetworkConsentDialog,
};

/** The dialog of the request's kind. */
function DialogFor<K extends ConsentKind>(props: { kind: K } & ConsentDialogProps<K>) {
  const Dialog: ComponentType<ConsentDialogProps<K>> = dialogs[props.kind];
  return (
    <Deferred>
      <Dialog request={props.request} onAnswer={props.onAnswer} queued={props.queued} busy={props.busy} />
    </Deferred>
  );
}

/** Shows the oldest pending consent request; the next one appears once it is answered. */
export function ConsentQueue() {
  const pending = useConsent((s) => s.pending);
  const answering = useConsent((s) => s.answering);
  const { answer } = useConsent((s) => s.actions);
  const request = pending[0];
  if (!request) return null;
  return (
    <DialogFor
      // A new request gets a fresh dialog (focus, scroll position).
      key={request.id}
      kind={request.kind}
      request={request}
      queued={pending.length - 1}
      busy={answering === request.id}
      onAnswer={(value) => {
        void answer(request.id, value);
      }}
    />
  );
}
