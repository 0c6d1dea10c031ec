import { useId } from 'react';
import type { ToolConsentDecision } from '../../../../shared/model/consent.js';

/** The allowing answers: one of them is sent when the person presses Allow. */
export type AllowDecision = Exclude<ToolConsentDecision, 'deny'>;

/** What the Allow button says for each choice, so it names what will happen. */
export const ALLOW_LABEL: Record<AllowDecision, string> = {
  'allow-once': 'Allow once',
  'allow-conversation': 'Allow for this conversation',
  'always-allow': 'Always allow',
  'trust-server': 'Trust server and allow',
  'allow-read-only': 'Allow read-only tools',
};

/**
 * How long an "allow" lasts: this call only, the rest of this conversation,
 * always for this tool, every tool of this server, or the tools the server
 * marks read-only. The last is offered only for a tool that claims to be
 * read-only now, and says plainly that it trusts the server's own claim.
 */
export function RememberChoice({
  server,
  tool,
  readOnly,
  inConversation,
  value,
  disabled,
  onChange,
}: {
  server: string;
  tool: string;
  readOnly: boolean;
  /** False for a call outside any conversation (an app in the Servers view): no conversation rule then. */
  inConversation: boolean;
  value: AllowDecision;
  disabled: boolean;
  onChange: (value: AllowDecision) => void;
}) {
  const name = useId();
  const options: { value: AllowDecision; label: string; note?: string }[] = [
    { value: 'allow-once', label: 'Only this time' },
    ...(inConversation
      ? [{ value: 'allow-conversation' as const, label: `Allow ${tool} for the rest of this conversation` }]
      : []),
    { value: 'always-allow', label: `Always allow ${tool} on ${server}` },
    {
      value: 'trust-server',
      label: `Trust ${server}: run all its tools without asking`,
      note: 'Including tools that change or delete data. Revocable in one click (Settings or the server’s page).',
    },
    ...(readOnly
      ? [
          {
            value: 'allow-read-only' as const,
            label: `Run tools ${server} marks read-only without asking (trusting the server’s claim)`,
            note: 'The app cannot check that a tool only reads; a tool without the mark still asks.',
          },
        ]
      : []),
  ];
  return (
    <fieldset className="remember" disabled={disabled}>
      <legend className="consent__label">Remember this choice</legend>
      {options.map((option) => (
        <label key={option.value} className="remember__option">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => {
              onChange(option.value);
            }}
          />
          <span>
            {option.label}
            {option.note !== undefined && <span className="remember__note">{option.note}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
