import { useState } from 'react';
import { ImportDialog } from './import-dialog.js';
import { RawConfigDialog } from './raw-config-dialog.js';

/** "Edit config file" and "Import servers", with their dialogs. */
export function ConfigMenu() {
  const [open, setOpen] = useState<'raw' | 'import'>();
  const close = () => {
    setOpen(undefined);
  };
  return (
    <div className="config-menu">
      <button
        type="button"
        className="btn config-menu__btn"
        onClick={() => {
          setOpen('import');
        }}
      >
        Import servers…
      </button>
      <button
        type="button"
        className="btn config-menu__btn"
        onClick={() => {
          setOpen('raw');
        }}
      >
        Edit config file
      </button>
      {open === 'raw' && <RawConfigDialog onClose={close} />}
      {open === 'import' && <ImportDialog onClose={close} />}
    </div>
  );
}
