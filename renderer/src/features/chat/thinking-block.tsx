import { useId, useState } from 'react';
import { Spinner } from '../../common/spinner.js';
import { DisclosureButton } from '../../common/disclosure-button.js';

/**
 * Claude's thinking, folded under a "Thinking" header that opens it. While
 * it streams the header says so (with a spinner) and the text grows inside;
 * redacted thinking (encrypted by the API) shows only that it happened.
 */
export function ThinkingBlock({
  text,
  streaming = false,
  redacted = false,
}: {
  text: string;
  streaming?: boolean;
  redacted?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const words = text.trim() === '' ? 0 : text.trim().split(/\s+/).length;
  const label = streaming ? 'Thinking…' : redacted ? 'Thinking (redacted)' : 'Thinking';
  return (
    <div className={`thinking${streaming ? ' thinking--live' : ''}`}>
      <DisclosureButton
        className="thinking__header"
        expanded={open}
        controls={bodyId}
        disabled={redacted}
        onToggle={() => {
          setOpen(!open);
        }}
      >
        {streaming && <Spinner />}
        <span className="thinking__label">{label}</span>
        {!redacted && words > 0 && <span className="thinking__meta">{words.toLocaleString()} words</span>}
      </DisclosureButton>
      {open && !redacted && (
        <div id={bodyId} className="thinking__body" role="region" aria-label="Claude's thinking">
          {text}
        </div>
      )}
    </div>
  );
}
