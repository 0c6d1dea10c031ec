import type { KeyboardEvent, ReactNode } from 'react';
import type { View } from '../chat/chat-state.js';
import { useChat, useChatActions } from '../chat/chat-context.js';
import { useAppState } from '../../store/store-context.js';
import { plural } from '../../common/text.js';

const ITEMS: { view: View; label: string; icon: ReactNode }[] = [
  {
    view: 'chat',
    label: 'Chat',
    icon: <path d="M4 5h16v10H9l-5 4V5z" />,
  },
  {
    view: 'servers',
    label: 'Servers',
    icon: (
      <>
        <rect x="4" y="4" width="16" height="6" rx="1.5" />
        <rect x="4" y="14" width="16" height="6" rx="1.5" />
      </>
    ),
  },
  {
    view: 'browse',
    label: 'Browse',
    icon: (
      <>
        <circle cx="10.5" cy="10.5" r="5.5" />
        <path d="M15 15l5 5" />
      </>
    ),
  },
  {
    view: 'tasks',
    label: 'Tasks',
    icon: (
      <>
        <circle cx="12" cy="12" r="8" />
        <path d="M12 7v5l3 2" />
      </>
    ),
  },
  {
    view: 'settings',
    label: 'Settings',
    icon: (
      <>
        <circle cx="12" cy="12" r="3" />
        <path d="M12 3v3M12 18v3M3 12h3M18 12h3M5.6 5.6l2.1 2.1M16.3 16.3l2.1 2.1M5.6 18.4l2.1-2.1M16.3 7.7l2.1-2.1" />
      </>
    ),
  },
];

/**
 * The left rail: Chat, Servers, Browse (the MCP registry), Settings. Each is a button (Tab reaches
 * them); Up/Down move between them, as in a toolbar.
 */
export function Rail() {
  const view = useChat((s) => s.view);
  const { setView } = useChatActions();
  // Seen from any view: servers that wait for the person to sign in.
  const signInCount = useAppState(
    (s) => s.serverNames.filter((name) => s.servers[name]?.status === 'sign-in-required').length,
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...event.currentTarget.querySelectorAll('button')];
    const index = buttons.findIndex((b) => b === document.activeElement);
    if (index === -1) return;
    event.preventDefault();
    const next = (index + (event.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length;
    buttons[next]?.focus();
  };

  return (
    <nav className="rail" aria-label="Sections" onKeyDown={onKeyDown}>
      <span className="rail__logo" aria-hidden="true" />
      {ITEMS.map((item) => (
        <button
          key={item.view}
          type="button"
          className="rail__item"
          aria-current={view === item.view ? 'page' : undefined}
          aria-describedby={item.view === 'servers' && signInCount > 0 ? 'rail-sign-in' : undefined}
          onClick={() => {
            setView(item.view);
          }}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" className="rail__icon">
            {item.icon}
          </svg>
          <span className="rail__label">{item.label}</span>
          {item.view === 'servers' && signInCount > 0 && (
            <>
              {/* The name stays "Servers"; the count is its description. */}
              <span className="rail__badge" aria-hidden="true" title={signInNote(signInCount)}>
                {String(signInCount)}
              </span>
              <span id="rail-sign-in" hidden>
                {signInNote(signInCount)}
              </span>
            </>
          )}
        </button>
      ))}
    </nav>
  );
}

/** "1 server needs sign-in", "2 servers need sign-in". */
function signInNote(count: number): string {
  return `${plural(count, 'server')} ${count === 1 ? 'needs' : 'need'} sign-in`;
}
