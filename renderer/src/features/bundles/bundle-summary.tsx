import type { BundlePreview } from '../../../../shared/model/bundle.js';
import { ServerText } from '../../common/server-text.js';

const PLATFORM_NAMES: Record<string, string> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

/** Quoted like a shell would need it, so what is read is what runs. */
const quote = (arg: string) => (arg === '' || /[\s"']/.test(arg) ? JSON.stringify(arg) : arg);

/** What the bundle is, what it runs and what it will be able to do. Every text is the bundle's own. */
export function BundleSummary({ preview }: { preview: BundlePreview }) {
  const commandLine = [preview.launch.command, ...preview.launch.args].map(quote).join(' ');
  const platforms =
    preview.platforms.length > 0 ? preview.platforms.map((p) => PLATFORM_NAMES[p] ?? p).join(', ') : 'Any';
  const runtimes = Object.entries(preview.runtimes).map(([name, range]) => `${name} ${range}`);
  return (
    <div className="bundle-summary">
      <p className="bundle-summary__description">
        <ServerText text={preview.description} />
      </p>
      <dl className="bundle-facts">
        <dt>Runs</dt>
        <dd>
          <code className="bundle-facts__command">
            <ServerText text={commandLine} />
          </code>
          {preview.launch.env.length > 0 && (
            <div className="bundle-facts__sub">
              with the environment variables
              <ul className="bundle-facts__list mono" aria-label="Environment variables">
                {preview.launch.env.map((entry) => (
                  <li key={entry.name}>
                    <ServerText text={`${entry.name}=${entry.value}`} />
                  </li>
                ))}
              </ul>
            </div>
          )}
        </dd>
        <dt>Runtime</dt>
        <dd className={preview.runtime.found ? undefined : 'bundle-facts__problem'}>
          <ServerText text={preview.runtime.text} />
          {runtimes.length > 0 && (
            <span className="bundle-facts__sub">
              Needs <ServerText text={runtimes.join(', ')} />
            </span>
          )}
        </dd>
        <dt>Platforms</dt>
        <dd className={preview.platformOk ? undefined : 'bundle-facts__problem'}>
          {platforms}
          {!preview.platformOk && ' (not this computer)'}
        </dd>
        <dt>Tools</dt>
        <dd>
          {preview.tools.length === 0 ? (
            <span className="muted">None declared</span>
          ) : (
            <ul className="bundle-facts__list">
              {preview.tools.map((tool) => (
                <li key={tool.name}>
                  <span className="mono">
                    <ServerText text={tool.name} />
                  </span>
                  {tool.description !== undefined && (
                    <span className="muted">
                      {' '}
                      — <ServerText text={tool.description} />
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
          {preview.toolsGenerated && (
            <span className="bundle-facts__sub">It may offer more tools when it runs.</span>
          )}
        </dd>
        {(preview.prompts.length > 0 || preview.promptsGenerated) && (
          <>
            <dt>Prompts</dt>
            <dd>
              <ServerText text={preview.prompts.map((p) => p.name).join(', ') || 'Offered when it runs'} />
            </dd>
          </>
        )}
        <dt>Publisher</dt>
        <dd>
          <ServerText text={preview.author.name} />
          {preview.author.url !== undefined && (
            <span className="bundle-facts__sub">
              <ServerText text={preview.author.url} />
            </span>
          )}
          {preview.repository !== undefined && (
            <span className="bundle-facts__sub">
              Source: <ServerText text={preview.repository} />
            </span>
          )}
        </dd>
      </dl>
      <h3 className="bundle-summary__heading">Once installed it will be able to</h3>
      <ul className="bundle-permissions">
        {preview.permissions.map((permission) => (
          <li
            key={permission.kind}
            className={`bundle-permissions__item bundle-permissions__item--${permission.kind}`}
          >
            <ServerText text={permission.text} />
          </li>
        ))}
      </ul>
    </div>
  );
}
