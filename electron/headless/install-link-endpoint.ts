import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Host } from '../host/host-types.js';
import { describeError } from '../host/errors.js';
import { requestUrl } from './auth.js';
import { cliRequestMac, newNonce, sameText, shellProof } from './proofs.js';

/** Where `mcp-host install --link` hands a link to a running headless shell. */
export const INSTALL_LINK_PATH = '/install-link';
/** Where the CLI first asks the shell to prove it holds the token. */
export const CLI_CHALLENGE_PATH = '/cli/challenge';
const MAX_BODY_BYTES = 32 * 1024;

const NONCE = z.string().regex(/^[\w-]{43}$/);
export const ChallengeSchema = z.object({ nonce: NONCE }).strict();
export const ChallengeAnswerSchema = z.object({ nonce: NONCE, proof: z.string().max(100) }).strict();
const BodySchema = z
  .object({ link: z.string().max(16 * 1024), nonce: NONCE, mac: z.string().max(100) })
  .strict();

/** How long a shell's nonce can be used for the one request that follows its challenge. */
const CHALLENGE_TTL_MS = 30_000;
/** Outstanding nonces at most; anyone may ask for one, so the oldest make room. */
const MAX_CHALLENGES = 256;

/** The shell's outstanding nonces: each signs exactly one CLI request, within a short time. */
export class CliChallenges {
  private readonly open = new Map<string, number>();

  issue(now = Date.now()): string {
    for (const [nonce, expires] of this.open) if (expires <= now) this.open.delete(nonce);
    while (this.open.size >= MAX_CHALLENGES) {
      const oldest = this.open.keys().next().value;
      if (oldest === undefined) break;
      this.open.delete(oldest);
    }
    const nonce = newNonce();
    this.open.set(nonce, now + CHALLENGE_TTL_MS);
    return nonce;
  }

  /** True once for a nonce this shell issued and that has not expired. */
  take(nonce: string, now = Date.now()): boolean {
    const expires = this.open.get(nonce);
    this.open.delete(nonce);
    return expires !== undefined && expires > now;
  }
}

/**
 * The CLI on the same machine (it reads the token from the data folder)
 * delivers an install link, which the open pages then show for confirmation.
 * Nothing is installed here. The token never travels, so a program squatting
 * on the remembered port learns nothing from the CLI:
 * 1. `POST /cli/challenge` `{ nonce }` (the CLI's fresh nonce): the shell
 *    answers `{ nonce, proof }` with its own fresh nonce and an HMAC over
 *    both; the CLI checks the proof before it sends anything else.
 * 2. `POST /install-link` `{ link, nonce, mac }`: the shell's nonce (single
 *    use, 30 s) and an HMAC over it and the link.
 * Requests a web page could make are refused: any with an Origin header
 * (browsers always send one on a cross-site POST).
 */
export async function serveInstallLink(
  req: IncomingMessage,
  res: ServerResponse,
  host: Host,
  token: string,
  challenges: CliChallenges,
): Promise<void> {
  const { status, body } = await answer(req, host, token, challenges);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`${JSON.stringify(body)}\n`);
}

type Answer = { status: number; body: { id: string } | { nonce: string; proof: string } | { error: string } };

async function answer(
  req: IncomingMessage,
  host: Host,
  token: string,
  challenges: CliChallenges,
): Promise<Answer> {
  const fail = (status: number, error: string) => ({ status, body: { error } });
  if (req.method !== 'POST') return fail(405, 'Method Not Allowed');
  if (req.headers.origin !== undefined) return fail(403, 'Forbidden');
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return fail(415, 'Send JSON');
  let text: string;
  try {
    text = await readBody(req);
  } catch (error) {
    return fail(413, describeError(error));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(400, 'The body is not JSON');
  }
  if (requestUrl(req).pathname === CLI_CHALLENGE_PATH) {
    const challenge = ChallengeSchema.safeParse(json);
    if (!challenge.success) return fail(400, 'The body must be { "nonce": "<43 base64url characters>" }');
    const nonce = challenges.issue();
    return { status: 200, body: { nonce, proof: shellProof(token, challenge.data.nonce, nonce) } };
  }
  const parsed = BodySchema.safeParse(json);
  if (!parsed.success)
    return fail(400, 'The body must be { "link": "mcp-host://install?…", "nonce": …, "mac": … }');
  const fresh = challenges.take(parsed.data.nonce);
  if (!fresh || !sameText(cliRequestMac(token, parsed.data.nonce, parsed.data.link), parsed.data.mac))
    return fail(401, 'Unauthorized');
  try {
    const pending = await host.installs.receiveLink(parsed.data.link);
    return { status: 200, body: { id: pending.id } };
  } catch (error) {
    return fail(400, describeError(error));
  }
}

/** The body as text; past the limit the rest is read and dropped (so the answer still reaches the caller) and it fails. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      // Far past the limit: not a link being sent but a flood; end the connection.
      else if (size > 16 * MAX_BODY_BYTES) req.destroy();
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) reject(new Error('The link is too large'));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('The link is too large'));
    });
  });
}
