import { useState } from 'react';
import { ImportDialog, RawConfigDialog } from '../../lazy/views.js';
import { Deferred } from '../../lazy/on-demand.js';
import { useHostReachable } from '../../store/store-context.js';

/** "Edit config file" and "Import servers", with their dialogs. */
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
      <Deferred>
        {open === 'raw' && <RawConfigDialog onClose={close} />}
        {open === 'import' && <ImportDialog onClose={close} />}
      </Deferred>
    </div>
  );
}
