import { useCallback, useEffect, useState } from 'react';
import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { ServerSkillsSchema } from '../../../../shared/model/skills.js';
import type { ServerSkills, SkillInfo } from '../../../../shared/model/skills.js';
import { HostErrorLine } from '../../common/host-error-line.js';
import { ServerText } from '../../common/server-text.js';
import { plural } from '../../common/text.js';
import { useHost } from '../../store/area-context.js';
import { useHostReachable } from '../../store/store-context.js';

/** "12 KB" for a size in bytes. */
function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${String(Math.round(bytes / 1024))} KB`;
  return `${String(bytes)} bytes`;
}

const STATE_LABEL: Record<SkillInfo['state'], string> = {
  verified: 'Verified',
  failed: 'Not offered',
  pending: 'Checking…',
};

function SkillRow({ skill }: { skill: SkillInfo }) {
  return (
    <li className="skill" aria-label={`Skill ${skill.name}`}>
      <div className="skill__head">
        <span className="skill__name">
          <ServerText text={skill.name} />
        </span>
        <span
          className={`badge ${skill.state === 'failed' ? 'badge--danger' : skill.state === 'verified' ? 'badge--info' : 'badge--neutral'}`}
        >
          {STATE_LABEL[skill.state]}
        </span>
      </div>
      <p className="skill__description">
        <ServerText text={skill.description} />
      </p>
      {skill.state === 'failed' && skill.reason !== undefined && (
        <p className="skill__reason" role="note">
          <ServerText text={skill.reason} />
        </p>
      )}
      {skill.files === 'dynamic' ? (
        <p className="muted skill__files-note">The server does not list this skill’s files.</p>
      ) : (
        <details className="skill__files">
          <summary>
            {skill.files.length + skill.moreFiles === 0
              ? 'SKILL.md only'
              : `SKILL.md and ${plural(skill.files.length + skill.moreFiles, 'other file')}`}{' '}
            · {size(skill.bytes)}
          </summary>
          {skill.files.length > 0 && (
            <ul aria-label={`Files of ${skill.name}`}>
              {skill.files.map((file) => (
                <li key={file.path}>
                  <code>
                    <ServerText text={file.path} />
                  </code>{' '}
                  <span className="muted">{size(file.size)}</span>
                </li>
              ))}
              {skill.moreFiles > 0 && <li className="muted">and {plural(skill.moreFiles, 'more file')}</li>}
            </ul>
          )}
        </details>
      )}
    </li>
  );
}

/**
 * A server's skills (SEP-2640): name, description, files and whether the
 * host verified it (its SKILL.md matches the server's listing). Only
 * verified skills are offered to Claude, and only while the switch is on
 * (`skills: false` in the server's entry turns them off). Everything shown
 * is the server's text, parsed and shown as plain text.
 */
export function SkillsTab({ server }: { server: ServerSnapshot }) {
  const host = useHost();
  const reachable = useHostReachable();
  const [skills, setSkills] = useState<ServerSkills>();
  const [error, setError] = useState<HostErrorValue>();
  const [busy, setBusy] = useState(false);
  const connected = server.status === 'connected';

  const take = useCallback((result: Result<ServerSkills>) => {
    if (!result.ok) {
      setError(result.error);
      return;
    }
    const parsed = ServerSkillsSchema.safeParse(result.value);
    if (parsed.success) {
      setSkills(parsed.data);
      setError(undefined);
    } else setError({ code: 'internal', message: 'The host sent a skills list this view cannot read' });
  }, []);

  useEffect(() => {
    if (!connected) return;
    let live = true;
    let again: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      void host.listSkills({ server: server.name }).then((result) => {
        if (!live) return;
        take(result);
        // Checks still running (a slow server): ask again until each has a verdict.
        if (result.ok && result.value.skills.some((s) => s.state === 'pending'))
          again = setTimeout(load, 2000);
      });
    };
    load();
    return () => {
      live = false;
      clearTimeout(again);
    };
  }, [host, server.name, connected, take]);

  if (!connected) return <p className="muted">Skills are listed while the server is connected.</p>;
  const verified = skills?.skills.filter((s) => s.state === 'verified').length ?? 0;
  return (
    <div className="card tool-panel skills">
      <header className="tool-panel__header">
        <h3 className="tool-panel__heading">Skills</h3>
        <label className="switch" title="Offer this server’s verified skills to Claude">
          <input
            type="checkbox"
            role="switch"
            className="switch__input"
            aria-label="Offer skills to Claude"
            checked={skills?.enabled ?? true}
            disabled={busy || !reachable || !skills}
            onChange={() => {
              setBusy(true);
              void host
                .setSkillsEnabled({ name: server.name, enabled: !(skills?.enabled ?? true) })
                .then((result) => {
                  setBusy(false);
                  take(result);
                });
            }}
          />
          <span className="switch__track" aria-hidden="true" />
        </label>
      </header>
      <p className="tool-panel__description">
        Instructions this server packages for Claude. Claude sees each verified skill’s name and description
        and loads one when a task needs it.{' '}
        {skills && !skills.enabled && <strong>Turned off: none is offered to Claude.</strong>}
      </p>
      {error && <HostErrorLine error={error} />}
      {!skills && !error && <p className="muted">Loading skills…</p>}
      {skills?.skills.length === 0 && <p className="muted">This server offers no skills.</p>}
      {skills && skills.skills.length > 0 && (
        <>
          <p className="muted">
            {plural(skills.skills.length, 'skill')}, {String(verified)} verified
          </p>
          <ul className="skills__list" aria-label="Skills">
            {skills.skills.map((skill) => (
              <SkillRow key={skill.uri} skill={skill} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
