import type { ReactNode } from 'react';

interface CollapsibleProps {
  title: string;
  /** Muted text after the title, e.g. a line count. */
  meta?: string | undefined;
  defaultOpen?: boolean;
  className?: string;
  children: ReactNode;
}

/** A section that starts folded: native <details>, so it works with keyboard and screen readers. */
export function Collapsible({ title, meta, defaultOpen = false, className, children }: CollapsibleProps) {
  return (
    <details className={['collapsible', className].filter(Boolean).join(' ')} open={defaultOpen}>
      <summary>
        <span className="collapsible__chevron" aria-hidden="true" />
        <span className="collapsible__title">{title}</span>
        {meta !== undefined && <span className="collapsible__meta">{meta}</span>}
      </summary>
      <div className="collapsible__body">{children}</div>
    </details>
  );
}
