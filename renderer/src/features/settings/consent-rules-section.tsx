import { useId } from 'react';
import { ServerText } from '../../common/server-text.js';
import type { ConsentRule } from '../../../../shared/model/consent-rules.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { SCOPE_LABEL, describeIdentity, groupByServer, ruleStatus } from '../consent/consent-rules.js';
import type { RuleStatus } from '../consent/consent-rules.js';
import { useRules } from '../consent/rules-context.js';
import { useAppState } from '../../store/store-context.js';

const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const STATUS_NOTE: Record<Exclude<RuleStatus, 'in-effect'>, string> = {
  unbound: 'Not in effect: made by an older version, not bound to a program. Allow again to bind it.',
  'no-server':
    'Not in effect: no server of this name is configured. It applies again only to the same program.',
  changed: 'Not in effect: this server now runs something else, so its calls ask again.',
};

/**
 * Every consent rule, grouped by server: its scope, the server identity it is
 * bound to and whether it applies to the server as configured now, each
 * revocable. When the host cannot trust its rule store, says so: then no
 * rule applies and every call asks.
 */
export function ConsentRulesSection() {
  const rules = useRules((s) => s.rules);
  const problem = useRules((s) => s.problem);
  const error = useRules((s) => s.error);
  const servers = useAppState((s) => s.servers);

  return (
    <section className="card settings-card" aria-labelledby="rules-title">
      <h2 id="rules-title">Consent rules</h2>
      <p className="field__hint">
        Rules let Claude’s tool calls run without asking. Each is bound to what the server runs — its command,
        arguments, environment variable names and folder, or its URL — so a different program added under the
        same name is asked about again. Revoke a rule to be asked again.
      </p>
      {problem !== undefined && (
        <p className="inline-alert" role="alert">
          <strong>No rule applies.</strong> {problem} Every tool call asks until this is fixed.
        </p>
      )}
      {error !== undefined && (
        <p className="inline-alert" role="alert">
          <strong>Not changed.</strong> {error.message}
        </p>
      )}
      {rules === undefined ? (
        <p className="muted">Loading…</p>
      ) : rules.length === 0 ? (
        <p className="muted">No rules: every tool call asks first.</p>
      ) : (
        groupByServer(rules).map(([server, list]) => (
          <RuleGroup key={server} server={server} rules={list} snapshot={servers[server]} />
        ))
      )}
    </section>
  );
}

function RuleGroup({
  server,
  rules,
  snapshot,
}: {
  server: string;
  rules: readonly ConsentRule[];
  snapshot: ServerSnapshot | undefined;
}) {
  const headingId = useId();
  return (
    <section className="rule-group" aria-labelledby={headingId}>
      <h3 id={headingId} className="rule-group__title">
        {server}
      </h3>
      <ul className="policy-list" aria-label={`Rules for ${server}`}>
        {rules.map((rule) => (
          <RuleItem key={rule.id} rule={rule} snapshot={snapshot} />
        ))}
      </ul>
    </section>
  );
}

function RuleItem({ rule, snapshot }: { rule: ConsentRule; snapshot: ServerSnapshot | undefined }) {
  const { revoke } = useRules((s) => s.actions);
  const status = ruleStatus(rule, snapshot);
  const what =
    rule.scope === 'conversation' || rule.scope === 'tool'
      ? `${rule.tool ?? ''} on ${rule.server}`
      : rule.server;
  return (
    <li className={`policy-list__item rule rule--${status}`}>
      <div className="rule__text">
        <span className="rule__scope">
          {SCOPE_LABEL[rule.scope]}
          {rule.tool !== undefined && (
            <>
              {': '}
              <code>
                <ServerText text={rule.tool} />
              </code>
            </>
          )}
          {rule.scope === 'conversation' && (
            <span className="muted"> · in “{rule.conversationTitle ?? 'a conversation'}”</span>
          )}
        </span>
        <span className="rule__identity">
          {rule.identity ? (
            <>
              Bound to <code title={rule.identity.hash}>{describeIdentity(rule.identity.parts)}</code>
            </>
          ) : (
            'Not bound to any program'
          )}
        </span>
        {status !== 'in-effect' && <span className="rule__note">{STATUS_NOTE[status]}</span>}
        <span className="muted rule__since">since {format.format(rule.createdAt)}</span>
      </div>
      <button
        type="button"
        className="btn btn--danger-quiet"
        aria-label={`Revoke “${SCOPE_LABEL[rule.scope]}” for ${what}`}
        onClick={() => {
          void revoke(rule.id);
        }}
      >
        Revoke
      </button>
    </li>
  );
}
