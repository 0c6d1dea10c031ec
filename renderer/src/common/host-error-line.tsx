import type { HostErrorValue } from '../../../shared/ipc/result.js';

/** A host refusal as one line with its code. */
export function HostErrorLine({ error }: { error: HostErrorValue }) {
  return (
    <div className="inline-alert" role="alert">
      {error.message}
      <code className="inline-alert__code">{error.code}</code>
    </div>
  );
}
