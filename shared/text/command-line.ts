/**
 * A command and its arguments as one line a person reads: an argument with
 * spaces, quotes or nothing in it is put in double quotes, so the words shown
 * are the words that run. Invisible characters are left to the caller
 * (terminalSafe in the CLI, ServerText in the UI), which spell them out.
 */
export function commandLineText(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteArg).join(' ');
}

function quoteArg(arg: string): string {
  return arg === '' || /[\s"'\\]/u.test(arg) ? `"${arg.replace(/(["\\])/g, '\\$1')}"` : arg;
}
