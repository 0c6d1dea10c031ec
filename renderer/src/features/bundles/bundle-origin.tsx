import { useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useHost } from '../../store/area-context.js';
import { useHostReachable } from '../../store/store-context.js';
import { ConfirmDialog } from '../../common/confirm-dialog.js';
import { ServerText } from '../../common/server-text.js';
import { InstallBundleButton } from './install-bundle-button.js';

/** For a server installed from a bundle: where it came from, Update (from a newer file) and Uninstall. */
export function BundleOrigin({ server }: { server: ServerSnapshot }) {
  const host = useHost();
  const reachable = useHostReachable();
  const [confirm, setConfirm] = useState(false);
  const bundle = server.bundle;
  if (!bundle) return null;
  return (
    <div className="bundle-origin">
      <p className="bundle-origin__text">
        Installed from the bundle{' '}
        <span className="mono">
          <ServerText text={bundle.id} />
        </span>
        , version <ServerText text={bundle.version} />
      </p>
      <InstallBundleButton label="Update from file…" />
      <button
        type="button"
        className="btn btn--danger-quiet"
        disabled={!reachable}
        onClick={() => {
          setConfirm(true);
        }}
      >
        Uninstall
      </button>
      {confirm && (
        <ConfirmDialog
          title={`Uninstall “${server.name}”?`}
          description="The server is stopped, its files are deleted, the secrets you entered for it are forgotten and it is removed from your configuration."
          confirmLabel="Uninstall"
          onConfirm={() => host.uninstallBundle({ name: server.name })}
          onClose={() => {
            setConfirm(false);
          }}
        />
      )}
    </div>
  );
}
