import { z } from 'zod';

/**
 * The OS sandbox a local (stdio) server runs in: its per-server settings in
 * the configuration file and what the server view shows of it.
 */

/** A full path: from the root, from the home folder (~), or a Windows drive. Relative paths would depend on where the app started. */
const FULL_PATH = /^(\/|~$|~\/|[A-Za-z]:[\\/])/;

const PathList = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'Paths must not be empty')
      .max(4096)
      .regex(FULL_PATH, {
        error: (issue) => `${JSON.stringify(issue.input)} is not a full path (start with / or ~/)`,
      }),
  )
  .max(256, 'At most 256 paths');

/** Host names or addresses, optionally with a port ("api.example.com", "*.example.com", "127.0.0.1:8080"). */
export const HostPatternSchema = z
  .string()
  .trim()
  .max(300)
  .regex(/^(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/, {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not a host name (write names like api.example.com or *.example.com)`,
  });
const HostList = z.array(HostPatternSchema).max(256, 'At most 256 hosts');

/** `sandbox` in an mcpServers entry. Absent: sandboxed with the default policy. */
export const SandboxConfigSchema = z.strictObject({
  /** false runs the server with all of the person's rights. Default true. */
  enabled: z.boolean().optional(),
  /** Extra paths the server may read (also inside folders the default policy hides). */
  allowRead: PathList.optional(),
  /** Extra paths the server may write. */
  allowWrite: PathList.optional(),
  /** Hosts the server may reach, e.g. "api.github.com". */
  allowHosts: HostList.optional(),
  /** Hosts the server may never reach (checked first; the person is not asked), e.g. "tracker.example.com". */
  denyHosts: HostList.optional(),
});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

/** What the server may reach over the network. */
export const SandboxNetworkSchema = z.object({
  /**
   * `filtered`: only through the host's proxy, which lets `hosts` through and
   * asks the person about any other host; `none`: no network at all; `open`:
   * not confined (older hosts).
   */
  mode: z.enum(['none', 'open', 'filtered']),
  /** The hosts the person allowed and the launcher's registry. */
  hosts: z.array(z.string().max(300)).max(300),
  /** Hosts never reached (`sandbox.denyHosts`). */
  denied: z.array(z.string().max(300)).max(300).optional(),
  /** What happens to other hosts, one line. */
  reason: z.string().max(500).optional(),
});
export type SandboxNetwork = z.infer<typeof SandboxNetworkSchema>;

/** The effective policy, as shown to people (home shown as ~). */
export const SandboxPolicySummarySchema = z.object({
  /** Paths the server cannot read (those that exist). */
  denyRead: z.array(z.string().max(4096)).max(300),
  /** Paths readable although hidden or private by default. */
  allowRead: z.array(z.string().max(4096)).max(300),
  /** The only paths it may write. */
  write: z.array(z.string().max(4096)).max(300),
  network: SandboxNetworkSchema,
  /** The server's own state folder (its HOME-like place to keep data). */
  stateFolder: z.string().max(4096),
});
export type SandboxPolicySummary = z.infer<typeof SandboxPolicySummarySchema>;

export const ServerSandboxSchema = z.object({
  /** `on`: the server runs confined; `off`: it runs with the person's rights (see reason). */
  state: z.enum(['on', 'off']),
  /** When off: why, one line ("bubblewrap is not installed", "turned off for this server"). */
  reason: z.string().max(500).optional(),
  /** When off because it cannot work here: what to do, one line ("install bubblewrap: sudo apt install bubblewrap"). */
  fix: z.string().max(500).optional(),
  /** When on: what the server may read, write and reach. */
  policy: SandboxPolicySummarySchema.optional(),
  /** Attempts the sandbox blocked since the last start, grouped, newest last (e.g. "read ~/.ssh/id_ed25519"). */
  blocked: z.array(z.string().max(600)).max(50).optional(),
});
export type ServerSandbox = z.infer<typeof ServerSandboxSchema>;

/** The lists of a server's sandbox the Settings tab edits. */
export const SANDBOX_LIST_KEYS = ['allowRead', 'allowWrite', 'allowHosts'] as const;
export type SandboxListKey = (typeof SANDBOX_LIST_KEYS)[number];

/**
 * A per-server policy checked with the config file's schema; its first
 * problem as one line naming its key (`allowHosts: "foo bar" is not a host
 * name …`). The Settings tab shows it before sending; the host refuses with it.
 */
export function checkSandboxConfig(
  value: unknown,
): { ok: true; config: SandboxConfig } | { ok: false; problem: string } {
  const parsed = SandboxConfigSchema.safeParse(value);
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0];
  if (issue === undefined) return { ok: false, problem: 'invalid sandbox settings' };
  // The key, not the index inside its list: the person knows the entry by its value.
  const key = issue.path.find((part) => typeof part === 'string');
  return { ok: false, problem: key !== undefined ? `${key}: ${issue.message}` : issue.message };
}

/** The first problem of a per-server policy (see checkSandboxConfig), or undefined when it is valid. */
export function sandboxConfigProblem(value: unknown): string | undefined {
  const check = checkSandboxConfig(value);
  return check.ok ? undefined : check.problem;
}

/**
 * Attempts the sandbox blocked while one tool call ran, as the tool card
 * shows them ("read ~/.ssh/id_ed25519"); attached by the host to a failed call's result.
 */
export const SandboxBlockedSchema = z.array(z.string().max(600)).max(20);
