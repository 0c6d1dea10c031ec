import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { ButtonHTMLAttributes, MouseEvent, Ref, RefObject } from 'react';

/** How long a consent dialog must have been on top and visible before its answers count. */
export const CONSENT_ARM_MS = 500;
/** How often the dialog checks that it is still on top. */
const CHECK_MS = 50;

/*
 * The consent layer: while any consent dialog is open, nothing else may go
 * above it (an app's full screen is refused, see components/apps/app-frame;
 * a consent dialog that opens over a full-screen app is the later modal, so
 * it is drawn above it and the app is inert behind it).
 */
let openConsents = 0;

/** Whether a consent dialog is open right now. */
export function consentDialogOpen(): boolean {
  return openConsents > 0;
}

function enterConsentLayer(): () => void {
  openConsents++;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    openConsents--;
  };
}

/** Whether `element` is what the person sees at the middle of its box (nothing drawn over it). */
function onTop(element: HTMLElement): boolean {
  if (document.visibilityState !== 'visible' || !element.isConnected) return false;
  const box = element.getBoundingClientRect();
  if (box.width <= 0 || box.height <= 0) return false;
  const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
  const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  return hit !== null && element.contains(hit);
}

export interface ConsentArming {
  /** The dialog has been on top and visible for CONSENT_ARM_MS: its answers count. */
  armed: boolean;
  /** The same, read at the moment of an event (never a stale render's value). */
  isArmed: () => boolean;
}

/**
 * Arms a consent dialog: while `ref`'s element is not on top and visible the
 * dialog's answers are ignored, and they start counting once it has been on
 * top and visible for CONSENT_ARM_MS without a break (anything drawn over it,
 * or the page hidden, starts the wait again). It also puts the dialog in the
 * consent layer while it is mounted. A click-jacker who opens a dialog under
 * the person's pointer gets nothing from the click that was meant for it.
 */
export function useConsentArming(ref: RefObject<HTMLElement | null>, enabled = true): ConsentArming {
  const [armed, setArmed] = useState(!enabled);
  const armedRef = useRef(!enabled);
  useEffect(() => {
    if (!enabled) return;
    const leave = enterConsentLayer();
    let since: number | undefined;
    const check = () => {
      const element = ref.current;
      const now = performance.now();
      if (element === null || !onTop(element)) since = undefined;
      else since ??= now;
      const next = since !== undefined && now - since >= CONSENT_ARM_MS;
      if (next !== armedRef.current) {
        armedRef.current = next;
        setArmed(next);
      }
    };
    check();
    const timer = setInterval(check, CHECK_MS);
    return () => {
      clearInterval(timer);
      armedRef.current = false;
      leave();
    };
  }, [ref, enabled]);
  return { armed, isArmed: () => armedRef.current };
}

/** Outside a consent dialog everything counts at once. */
const ALWAYS: ConsentArming = { armed: true, isArmed: () => true };
export const ConsentArmingContext = createContext<ConsentArming>(ALWAYS);

/** The arming of the consent dialog around the caller (always armed outside one). */
export function useConsentArmed(): ConsentArming {
  return useContext(ConsentArmingContext);
}

/**
 * An answer button of a consent dialog (allow, deny, accept, decline…):
 * until the dialog is armed it is marked aria-disabled (it keeps its place
 * in the tab order and can hold the focus), looks inactive, and a click, or
 * Enter or Space on it, does nothing, not even submit its form.
 */
export function ConsentButton(
  props: ButtonHTMLAttributes<HTMLButtonElement> & { ref?: Ref<HTMLButtonElement> },
) {
  const { armed, isArmed } = useConsentArmed();
  const { onClick, className, ...rest } = props;
  return (
    <button
      {...rest}
      className={[className, armed ? undefined : 'btn--arming'].filter(Boolean).join(' ')}
      aria-disabled={armed ? rest['aria-disabled'] : true}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (!isArmed()) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    />
  );
}
