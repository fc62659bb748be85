// Password work on behalf of a client: each operation that checks or sets a password is counted against a
// throttle (per address, per address and e-mail, and per account where the caller is signed in) before any work
// starts, and its derivations wait in the client's lane of the fair queue (src/auth/passwords.ts), so a flood
// from one company or address neither guesses without limit nor holds up anyone else's login.
import { passwordWork, type PasswordWork } from '../auth/passwords.ts';
import { DomainError, rateLimited } from '../domain/errors.ts';
import type { LoginAttempt, LoginThrottle } from '../security/login-throttle.ts';

/** Who asks, and the throttle the operation counts against. */
export interface ThrottledClient {
  ip: string;
  throttle: LoginThrottle;
}

/** Requests that name no company they may use queue in one lane of their own. */
const NO_COMPANY = 'none';

/** The password work of this client for this company (null: none found). */
export const passwordWorkFor = (companyId: number | null | undefined, ip: string): PasswordWork =>
  passwordWork({ company: companyId == null ? NO_COMPANY : String(companyId), address: ip });

/**
 * Counts one attempt (`subject`: the e-mail, or what else the operation is about; `account`: the signed-in
 * caller's id) or refuses with RATE_LIMITED. `tooMany` names what there were too many of.
 */
export async function countAttempt(
  client: ThrottledClient,
  subject: string,
  tooMany: string,
  account?: number,
): Promise<LoginAttempt> {
  const attempt = await client.throttle.attempt(client.ip, subject, account === undefined ? undefined : `${account}`);
  if (attempt.retryAfterSeconds !== null) {
    throw rateLimited(`too many ${tooMany}: try again in ${attempt.retryAfterSeconds} s`, attempt.retryAfterSeconds);
  }
  return attempt;
}

/**
 * Whether a refused operation gives its attempt back: nothing was guessed when the database failed, the password queue
 * was full, or the input itself was refused (a name, a password the policy refuses) before any link or e-mail was
 * tried. A refusal about the link or the e-mail (NOT_FOUND, CONFLICT) stays counted.
 */
const nothingGuessed = (err: unknown): boolean =>
  !(err instanceof DomainError) || err.extensions.code === 'RATE_LIMITED' || err.extensions.code === 'BAD_USER_INPUT';

/**
 * Runs `work` as one counted attempt (countAttempt's arguments): a refusal that guessed nothing is given back, and
 * so is a success where `success` is 'given back' (a link that opened something was no guess); where it is
 * 'counted' (every sign-up), a success stays counted.
 */
export async function counted<T>(
  client: ThrottledClient,
  subject: string,
  tooMany: string,
  success: 'given back' | 'counted',
  work: () => Promise<T>,
): Promise<T> {
  const attempt = await countAttempt(client, subject, tooMany);
  try {
    const done = await work();
    if (success === 'given back') await attempt.cancelled();
    return done;
  } catch (err) {
    if (nothingGuessed(err)) await attempt.cancelled();
    throw err;
  }
}
