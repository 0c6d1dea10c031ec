import type { ConsentAnswer, ConsentKind, ConsentRequestOf } from '../../../../shared/model/consent.js';

/**
 * What every consent dialog receives: its request and the function that
 * answers it. Kept apart from the queue that picks the dialog
 * (consent-queue.tsx), so no dialog imports the queue.
 */
export interface ConsentDialogProps<K extends ConsentKind> {
  request: ConsentRequestOf<K>;
  onAnswer: (answer: ConsentAnswer<K>) => void;
  /** More requests wait behind this one. */
  queued: number;
  /** The answer is on its way to the host. */
  busy: boolean;
}
