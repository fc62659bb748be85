// Failed login attempts per client address and per (address, e-mail), in fixed windows.
// Login is the one operation an attacker can repeat without credentials, so it gets its own strict limit on top
// of the general per-address limit; GraphQL's `login` and REST's POST /auth/login share it (REST runs the mutation).
// Only failures count (an office behind one NAT address logs in all morning); a success clears its e-mail's count.
// An attempt is counted when it starts (`attempt`), before its password is checked, and given back if it succeeds:
// attempts sent at once are then held to the limit exactly like attempts sent one after another, where counting
// after the check would let every attempt already in flight through to scrypt.
// On PostgreSQL the counts live in the database, so every replica counts against one limit
// (shared-login-throttle.ts); on SQLite, whose gateway is one process, in memory (memory-login-throttle.ts).
// login-throttle-for.ts picks one.
import { createHash } from 'node:crypto';

export interface LoginThrottle {
  /** Seconds to wait before another attempt for this address and e-mail, or null when one is allowed. */
  check(address: string, email: string, account?: Account): Promise<number | null>;
  /**
   * Checks and counts one attempt at once (no other request can slip in between): refused past the limit, else
   * counted as a failure until it is ended with `succeeded` or `cancelled`. With `account` (a signed-in caller's
   * own, for the operations that prove its password again), the attempt counts for that account from every
   * address too: a stolen token tried from many addresses still gets the limit once (see Account).
   */
  attempt(address: string, email: string, account?: Account): Promise<LoginAttempt>;
}

/** A login attempt `attempt` let through and counted: unless ended otherwise, it stays counted as a failure. */
export interface LoginAttempt {
  /** Seconds to wait when the attempt was refused (nothing was counted), else null. */
  readonly retryAfterSeconds: number | null;
  /** The credentials were right: the attempt is given back and the e-mail's failures are cleared. Never rejects. */
  succeeded(): Promise<void>;
  /** No credential was checked (the database was away, ...): the attempt is given back. Never rejects. */
  cancelled(): Promise<void>;
}

/** Addresses get a wider budget than one address and e-mail, so a shared NAT does not lock out an office. */
export const PER_ADDRESS_FACTOR = 10;

export const addressKey = (address: string) => `a:${address}`;
// Hashed, so a megabyte-long e-mail costs no more than a short one.
export const emailKey = (address: string, email: string) =>
  `e:${address}:${createHash('sha256').update(email).digest('base64url')}`;

/**
 * Whose account an attempt is about, from every address. A signed-in caller proving its password again (its user
 * id) gets the strict limit; a login (`{ login: e-mail }`) ten times it: enough to stop guessing one account from
 * many addresses, not so few that anyone could lock a colleague out by failing logins in their name.
 */
export type Account = string | { login: string };

export const accountKey = (account: Account) =>
  typeof account === 'string' ? `u:${account}` : `l:${createHash('sha256').update(account.login).digest('base64url')}`;

export const accountMax = (account: Account, max: number) =>
  typeof account === 'string' ? max : max * PER_ADDRESS_FACTOR;

/** Whole seconds until `resetAt`, at least one. */
export const secondsUntil = (resetAt: number, now: number) => Math.max(1, Math.ceil((resetAt - now) / 1000));
