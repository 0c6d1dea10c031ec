import { useState } from 'react';
import { ImportDialog, RawConfigDialog } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { useHostReachable } from '../../store/store-context.js';
import { InstallBundleButton } from '../bundles/install-bundle-button.js';

/** "Edit config file", "Import servers" and "Install from bundle", with their dialogs. */
export function ConfigMenu() {
  const [open, setOpen] = useState<'raw' | 'import'>();
  const reachable = useHostReachable();
  const close = () => {
    setOpen(undefined);
  };
  return (
    <div className="config-menu">
      <button
        type="button"
        className="btn config-menu__btn"
        disabled={!reachable}
        onClick={() => {
          setOpen('import');
        }}
      >
        Import servers…
      </button>
      <button
        type="button"
        className="btn config-menu__btn"
        disabled={!reachable}
        onClick={() => {
          setOpen('raw');
        }}
      >
        Edit config file
      </button>
      <InstallBundleButton className="btn config-menu__btn bundle-install-btn" />
      <Deferred>
        {open === 'raw' && <RawConfigDialog onClose={close} />}
        {open === 'import' && <ImportDialog onClose={close} />}
      </Deferred>
    </div>
  );
}
