import { useEffect, useId, useRef, useState } from 'react';

/** Wait this long after the last keystroke before asking the server. */
const DEBOUNCE_MS = 150;

/**
 * A text field that offers the server's completions (completion/complete)
 * as a listbox below it: ↓/↑ move, Enter or Tab take the suggestion, Escape
 * closes the list. Without `complete` it is a plain field.
 */
export function CompletionInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Asks the server for suggestions for this value; undefined when it offers none. */
  complete?: ((value: string) => Promise<readonly string[]>) | undefined;
  required?: boolean | undefined;
  description?: string | undefined;
  placeholder?: string | undefined;
  autoFocus?: boolean | undefined;
  onEnter?: (() => void) | undefined;
}) {
  const { value, onChange, complete } = props;
  const id = useId();
  // Suggestions are shown only for the value they were asked for, never stale ones.
  const [answer, setAnswer] = useState<{ value: string; suggestions: readonly string[] }>({
    value: '',
    suggestions: [],
  });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const asked = useRef(0);
  // The parent may pass a new function on every render; only a new value (or
  // opening the list) is a reason to ask the server again.
  const latestComplete = useRef(complete);
  useEffect(() => {
    latestComplete.current = complete;
  });
  const canComplete = complete !== undefined;

  useEffect(() => {
    if (!canComplete || !open) return;
    const ticket = ++asked.current;
    const timer = setTimeout(() => {
      // The newest function carries the newest context (the other fields' values).
      const ask = latestComplete.current;
      if (!ask) return;
      // A late answer for an older value is dropped by the ticket check.
      void ask(value).then((values) => {
        if (ticket !== asked.current) return;
        setAnswer({ value, suggestions: values });
        setActive(-1);
      });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [canComplete, value, open]);

  const suggestions = answer.value === value ? answer.suggestions : [];
  const shown = open && suggestions.length > 0 && !(suggestions.length === 1 && suggestions[0] === value);
  const take = (suggestion: string) => {
    onChange(suggestion);
    setOpen(false);
  };

  return (
    <div className="field completion">
      <div className="field__header">
        <label htmlFor={id} className="field__label">
          {props.label}
        </label>
        {props.required !== true && <span className="field__optional">optional</span>}
      </div>
      <div className="completion__anchor">
        <input
          id={id}
          className="field__control"
          value={value}
          placeholder={props.placeholder}
          required={props.required}
          autoFocus={props.autoFocus}
          autoComplete="off"
          spellCheck={false}
          {...(complete
            ? {
                role: 'combobox',
                'aria-autocomplete': 'list' as const,
                'aria-expanded': shown,
                'aria-controls': `${id}-list`,
                ...(shown && active >= 0 ? { 'aria-activedescendant': `${id}-opt-${String(active)}` } : {}),
              }
            : {})}
          aria-describedby={props.description !== undefined ? `${id}-desc` : undefined}
          onChange={(event) => {
            onChange(event.target.value);
            setOpen(true);
          }}
          onFocus={() => {
            setOpen(true);
          }}
          onBlur={() => {
            setOpen(false);
          }}
          onKeyDown={(event) => {
            if (shown && event.key === 'ArrowDown') {
              event.preventDefault();
              setActive((a) => (a + 1) % suggestions.length);
            } else if (shown && event.key === 'ArrowUp') {
              event.preventDefault();
              setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1));
            } else if (shown && active >= 0 && (event.key === 'Enter' || event.key === 'Tab')) {
              event.preventDefault();
              take(suggestions[active] ?? value);
            } else if (shown && event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              setOpen(false);
            } else if (event.key === 'Enter' && props.onEnter) {
              event.preventDefault();
              props.onEnter();
            } else if (!open && event.key === 'ArrowDown') {
              setOpen(true);
            }
          }}
        />
        {complete && (
          <ul
            id={`${id}-list`}
            role="listbox"
            aria-label={`Suggestions for ${props.label}`}
            className="completion__list"
            hidden={!shown}
          >
            {shown &&
              suggestions.map((suggestion, index) => (
                <li
                  key={suggestion}
                  id={`${id}-opt-${String(index)}`}
                  role="option"
                  aria-selected={index === active}
                  className="completion__option"
                  onMouseDown={(event) => {
                    // Keep focus in the field; the click takes the suggestion.
                    event.preventDefault();
                    take(suggestion);
                  }}
                >
                  {suggestion}
                </li>
              ))}
          </ul>
        )}
      </div>
      {props.description !== undefined && (
        <span id={`${id}-desc`} className="field__hint">
          {props.description}
        </span>
      )}
    </div>
  );
}
