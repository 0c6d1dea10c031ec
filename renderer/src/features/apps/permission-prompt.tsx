import type { AppPermission } from '../../../../shared/model/apps.js';

const LABEL: Record<AppPermission, string> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'location',
  clipboardWrite: 'writing to the clipboard',
};

/** Asks before an app gets any device permission it declared; "Continue without" grants none. */
export function PermissionPrompt({
  server,
  permissions,
  onAnswer,
}: {
  server: string;
  permissions: readonly AppPermission[];
  onAnswer: (granted: AppPermission[]) => void;
}) {
  return (
    <div className="app-permissions" role="group" aria-label="App permissions">
      <p>
        The app of <strong>{server}</strong> asks for: {permissions.map((p) => LABEL[p]).join(', ')}.
      </p>
      <div className="app-permissions__actions">
        <button
          type="button"
          className="btn"
          onClick={() => {
            onAnswer([]);
          }}
        >
          Continue without
        </button>
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            onAnswer([...permissions]);
          }}
        >
          Allow
        </button>
      </div>
    </div>
  );
}
