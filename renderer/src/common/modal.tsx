import { useLayoutEffect, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import { ConsentArmingContext, useConsentArming } from '../features/consent/consent-guard.js';

interface ModalProps {
  /** id of the heading that names the dialog. */
  labelledBy: string;
  /** id of the text that describes it (confirmations). */
  describedBy?: string;
  /** Esc, Cancel buttons and backdrop clicks all end up here. */
  onClose: () => void;
  /** Receives focus when the dialog opens (else the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  role?: 'dialog' | 'alertdialog';
  /** False for decisions that must be made explicitly (consent): a backdrop press does nothing. */
  closeOnBackdrop?: boolean;
  className?: string;
  /**
   * A consent dialog: it stays above everything an app draws, and its
   * ConsentButtons count only once it has been on top and visible for a
   * moment (consent/consent-guard.tsx).
   */
  consent?: boolean;
  children: ReactNode;
}

/**
 * A modal built on the native <dialog>: showModal() gives the focus trap,
 * the inert page behind it, the top layer and Esc (as a "cancel" event).
 * Mount it to open, unmount it to close; focus returns to where it was.
 */
export function Modal(props: ModalProps) {
  const {
    labelledBy,
    describedBy,
    onClose,
    initialFocus,
    role = 'dialog',
    closeOnBackdrop = true,
    className,
    consent = false,
    children,
  } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const arming = useConsentArming(ref, consent);

  // Layout effect: the cleanup must close() while the element is still in the
  // document, so the browser restores focus to the control that opened it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      dialog.close();
    };
  }, [initialFocus]);

  return (
    <dialog
      ref={ref}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-modal="true"
      className={['modal', className].filter(Boolean).join(' ')}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        // A press on the backdrop targets the <dialog> itself, not its content.
        if (closeOnBackdrop && event.target === event.currentTarget) onClose();
      }}
    >
      <ConsentArmingContext.Provider value={arming}>{children}</ConsentArmingContext.Provider>
    </dialog>
  );
}
