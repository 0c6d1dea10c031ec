import type { ChatError } from './api-errors.js';

/** Thrown inside the turn's loop when the user pressed Stop. */
export class StopSignal extends Error {}

/** An error that already knows how to describe itself to the user. */
export class ChatFailure extends Error {
  constructor(readonly chatError: ChatError) {
    super(chatError.message);
  }
}
