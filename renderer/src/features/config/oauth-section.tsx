import type { ServerEntryFormValues } from './server-entry-form.js';
import { FormField } from './form-field.js';
import { Collapsible } from '../../common/collapsible.js';
import { useSecretStorageSentence } from '../../common/secret-storage.js';

type OAuthField = 'oauthClientId' | 'oauthClientSecret' | 'oauthScopes';

interface OAuthSectionProps {
  values: ServerEntryFormValues;
  /** The dialog's binding of a field (value, error, change and blur handlers). */
  bind: (field: OAuthField) => {
    value: string;
    error: string | undefined;
    onChange: (value: string) => void;
    onBlur: () => void;
  };
  onStoredSecret: (state: ServerEntryFormValues['oauthStoredSecret']) => void;
}

/**
 * "Sign-in (OAuth)" of a remote server's form: a client registered
 * beforehand (client id, secret) and the scopes to ask for. Folded unless
 * the entry has such settings or a field in it is wrong. A stored secret is
 * never shown: only that there is one, and a way to forget it.
 */
export function OAuthSection({ values, bind, onStoredSecret }: OAuthSectionProps) {
  const storage = useSecretStorageSentence();
  const fields = (['oauthClientId', 'oauthClientSecret', 'oauthScopes'] as const).map(bind);
  const open = values.hadOAuth || fields.some((field) => field.error !== undefined);
  const stored = values.oauthStoredSecret;
  return (
    <Collapsible title="Sign-in (OAuth)" meta="optional" defaultOpen={open} className="oauth-section">
      <p className="field__hint oauth-section__intro">
        A server that asks for a sign-in works without these: the app registers itself with the authorization
        server. Fill them in when the server’s owner gave you a client ID.
      </p>
      <FormField label="Client ID" optional mono placeholder="mcp-host" {...bind('oauthClientId')} />
      <FormField
        label="Client secret"
        optional
        secret
        mono
        placeholder={stored === 'keep' ? 'Leave empty to keep the stored secret' : ''}
        hint={`${storage} Never in the configuration file, never shown again.`.trim()}
        {...bind('oauthClientSecret')}
      />
      {stored === 'keep' && (
        <p className="oauth-section__stored">
          <span>A secret is stored.</span>
          <button
            type="button"
            className="btn btn--small btn--danger-quiet"
            onClick={() => {
              onStoredSecret('forget');
            }}
          >
            Forget
          </button>
        </p>
      )}
      {stored === 'forget' && (
        <p className="oauth-section__stored" role="status">
          <span>The stored secret is forgotten when you save.</span>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => {
              onStoredSecret('keep');
            }}
          >
            Keep it
          </button>
        </p>
      )}
      <FormField
        label="Scopes"
        optional
        mono
        placeholder="read write"
        hint="Separated by spaces. Empty: what the server asks for, else what the authorization server offers."
        {...bind('oauthScopes')}
      />
    </Collapsible>
  );
}
