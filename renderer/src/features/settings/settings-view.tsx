import { ApiKeySection } from './api-key-section.js';
import { AuditSection } from './audit-section.js';
import { ConnectionSection } from './connection-section.js';
import { ConsentRulesSection } from './consent-rules-section.js';
import { ToolSearchSection } from './tool-search-section.js';
import { RegistrySection } from './registry-section.js';

/** Settings: the API key, the endpoint and model, tool search, the MCP registry, the consent rules and the audit trail. */
export function SettingsView() {
  return (
    <main className="settings" aria-labelledby="settings-title">
      <div className="settings__inner">
        <h1 id="settings-title" className="settings__title">
          Settings
        </h1>
        <ApiKeySection />
        <ConnectionSection />
        <ToolSearchSection />
        <RegistrySection />
        <ConsentRulesSection />
        <AuditSection />
      </div>
    </main>
  );
}
