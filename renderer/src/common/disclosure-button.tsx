import type { ReactNode } from 'react';

/**
 * A button that shows or hides the element `controls` (the disclosure
 * pattern: `aria-expanded`, `aria-controls`), led by the chevron Collapsible
 * uses. A disabled one has nothing to show, so it has no chevron.
 */
export function DisclosureButton({
  expanded,
  controls,
  onToggle,
  className,
  disabled,
  children,
}: {
  expanded: boolean;
  controls: string;
  onToggle: () => void;
  className: string;
  disabled?: boolean | undefined;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      aria-expanded={expanded}
      aria-controls={controls}
      disabled={disabled}
      onClick={onToggle}
    >
      {disabled !== true && <span className="collapsible__chevron" aria-hidden="true" />}
      {children}
    </button>
  );
}
