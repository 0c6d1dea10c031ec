import type { ToolDefinition } from '../../../shared/model/tool-pins.js';
import { describeError } from '../errors.js';
import type { ToolPinStore } from '../persistence/tool-pin-store.js';
import { ToolPins } from './tool-pins.js';

export interface ToolPinGateOptions {
  /** The persisted stores (opened on first use). */
  open: () => Promise<{ pins: ToolPinStore }>;
  /** The identity hash of a configured server now; undefined when it is no longer configured. */
  identityOf: (server: string) => string | undefined;
  /** A line for the server's log (a list that could not be compared). */
  onWarning: (server: string, line: string) => void;
}

/**
 * Where tool lists meet their pins: each list a server sends is compared as
 * it arrives (the database opens on the first one; until then lists wait in
 * order), and the consent gate and the chat's tool list compare again with
 * what they are about to use, so no path sees a changed tool unmarked.
 */
export class ToolPinGate {
  private current: { store: ToolPinStore; pins: ToolPins } | undefined;

  constructor(private readonly options: ToolPinGateOptions) {}

  /** The pins over the open database (a reopened one gets fresh pins). */
  async pins(): Promise<ToolPins> {
    const { pins: store } = await this.options.open();
    if (this.current?.store !== store) this.current = { store, pins: new ToolPins(store) };
    return this.current.pins;
  }

  /** A tool list arrived: compare it now if the database is open, else once it is. Never throws. */
  arrived(server: string, definitions: readonly ToolDefinition[]): void {
    const compare = (pins: ToolPins): void => {
      const identity = this.options.identityOf(server);
      if (identity === undefined) return;
      try {
        pins.observe(server, identity, definitions);
      } catch (error) {
        this.options.onWarning(
          server,
          `the tool list could not be compared with its pins: ${describeError(error)}`,
        );
      }
    };
    if (this.current) {
      compare(this.current.pins);
      return;
    }
    this.pins().then(compare, (error: unknown) => {
      this.options.onWarning(
        server,
        `the tool list could not be compared with its pins: ${describeError(error)}`,
      );
    });
  }
}
