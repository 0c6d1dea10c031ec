/**
 * `${user_config.KEY}` in a stored stdio entry: a sensitive setting of a
 * bundle-installed server (electron/host/install/bundle/), kept out of the
 * configuration file and filled in from encrypted storage only when the
 * server is spawned.
 */
const SETTING = /\$\{user_config\.([^}]+)\}/g;

/** The setting keys a text refers to. */
export function settingReferences(text: string): string[] {
  return [...text.matchAll(SETTING)].map((match) => match[1] ?? '');
}

/**
 * Fills the references whose key has a secret; others stay as written. Runs
 * after `${env:…}` expansion, so a secret that happens to contain `${env:X}`
 * reaches the server as typed.
 */
export function fillSecrets(text: string, secrets: Readonly<Record<string, string>>): string {
  return text.replace(SETTING, (whole, key: string) => secrets[key] ?? whole);
}
