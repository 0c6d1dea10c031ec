import { useConsent } from '../consent/consent-context.js';

/** The host's one-line refusal of the last answer, if any. */
export function ConsentError() {
  const error = useConsent((s) => s.error);
  if (!error) return null;
  return (
    <p className="inline-alert" role="alert">
      <strong>Not sent:</strong> {error.message}
    </p>
  );
}
