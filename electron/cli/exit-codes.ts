import type { ErrorCode } from '../../shared/ipc/result.js';

export const EXIT = { ok: 0, toolError: 1, usage: 2, connection: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports as one line on stderr, with its exit status. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}

/** Usage and configuration mistakes are 2; everything about reaching a server is 3. */
export function errorExitCode(code: ErrorCode): ExitCode {
  switch (code) {
    case 'invalid_params':
    case 'invalid_arguments':
    case 'invalid_json':
    case 'not_found':
    case 'conflict':
    case 'config_invalid':
    case 'denied':
    case 'no_api_key':
      return EXIT.usage;
    default:
      return EXIT.connection;
  }
}
