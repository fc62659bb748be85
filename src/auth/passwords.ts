// Password hashing (scrypt, a memory-hard KDF from node:crypto) and the company password policies.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * The cost of new hashes as log2 of scrypt's N. The default, N = 2^17 with r = 8 and p = 1 (128 MiB and a few
 * tenths of a second per derivation), is OWASP's current guidance; PASSWORD_HASH_COST (src/config.ts) sets it per
 * process, and the test suite runs at the minimum.
 */
export const DEFAULT_PASSWORD_HASH_COST = 17;
export const MIN_PASSWORD_HASH_COST = 14;
export const MAX_PASSWORD_HASH_COST = 20;
const R = 8;
const P = 1;
const KEY_LEN = 32;

let currentCost = DEFAULT_PASSWORD_HASH_COST;

/** Sets the cost of the hashes this process makes from now on (processes call it with their config at start). */
export function setPasswordHashCost(log2N: number): void {
  currentCost = checkedCost(log2N);
}

function checkedCost(log2N: number): number {
  if (!Number.isInteger(log2N) || log2N < MIN_PASSWORD_HASH_COST || log2N > MAX_PASSWORD_HASH_COST) {
    throw new RangeError(
      `the password hash cost must be an integer from ${MIN_PASSWORD_HASH_COST} to ${MAX_PASSWORD_HASH_COST}, got ` +
        `${log2N}`,
    );
  }
  return log2N;
}

export const passwordHashCost = (): number => currentCost;

// OpenSSL refuses a derivation needing more than maxmem: its work area is 128·r·(N + 2) bytes plus 128·r·p.
const memoryFor = (N: number, r: number, p: number) => 128 * r * (N + 2 + p) + 1024 * 1024;

/**
 * Derivations running at once. Each takes 128 MiB at the default cost and a libuv worker thread (4 in all, shared
 * with DNS lookups and file I/O): anyone can ask for one by logging in, so they queue here instead of taking the
 * process's memory and every worker.
 */
const MAX_CONCURRENT_DERIVATIONS = 2;
let running = 0;
const waiting: Array<() => void> = [];

/** Derivations running and queued (tests, and anyone sizing a container, read it). */
export const derivationLoad = () => ({ running, waiting: waiting.length });

async function derive(
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  keyLen: number,
): Promise<Buffer> {
  // A finishing derivation hands its slot straight to the next waiter, so none can slip in between.
  if (running < MAX_CONCURRENT_DERIVATIONS) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    const options: ScryptOptions = { N, r, p, maxmem: memoryFor(N, r, p) };
    return await new Promise((resolve, reject) =>
      scrypt(password.normalize('NFKC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** `scrypt$N$r$p$salt$hash`, parameters stored so they can be raised later without breaking old hashes. */
export async function hashPassword(password: string, log2N: number = currentCost): Promise<string> {
  const N = 2 ** checkedCost(log2N);
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, KEY_LEN);
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

/** The parameters of a stored hash, or null when it is not one of ours or asks for absurd work. */
function parse(stored: string | null | undefined): Parsed | null {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const hash = Buffer.from(parts[5], 'base64url');
  const sane =
    Number.isInteger(N) &&
    N >= 2 &&
    N <= 2 ** MAX_PASSWORD_HASH_COST &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= 32 &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= 16 &&
    hash.length >= 16 &&
    hash.length <= 64 &&
    N * r <= 2 ** MAX_PASSWORD_HASH_COST * R; // at most the memory of the highest cost (1 GiB)
  return sane ? { N, r, p, salt: Buffer.from(parts[4], 'base64url'), hash } : null;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const h = parse(stored);
  if (!h) return false;
  const key = await derive(password, h.salt, h.N, h.r, h.p, h.hash.length);
  return timingSafeEqual(key, h.hash);
}

/** True when a stored hash was made with weaker parameters than new hashes get: it is replaced at the next login. */
export function needsRehash(stored: string | null | undefined): boolean {
  const h = parse(stored);
  return h !== null && (h.N < 2 ** currentCost || h.r < R || h.hash.length < KEY_LEN);
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * Costs what checking a password against a stored hash at the current parameters costs, and never matches:
 * for logins that name no usable account, so their answer takes as long as a wrong password's.
 */
export async function verifyNoPassword(password: string): Promise<false> {
  const cost = currentCost;
  let dummy = dummyHashes.get(cost);
  if (!dummy) {
    dummy = hashPassword(randomBytes(16).toString('base64url'), cost);
    dummy.catch(() => dummyHashes.delete(cost));
    dummyHashes.set(cost, dummy);
  }
  await verifyPassword(password, await dummy);
  return false;
}

export type PasswordPolicyName = 'base' | 'strong' | 'nist';

// NIST SP 800-63B asks to refuse passwords known to be common; a short list of the worst offenders.
const COMMON = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'qwerty123',
  'iloveyou',
  'football',
  'futbol123',
  'abc12345',
  'letmein1',
  'welcome1',
  'admin123',
  'prode2026',
]);

/** Returns null when the password satisfies the policy, else the reason in one sentence. */
export function passwordPolicyViolation(password: string, policy: PasswordPolicyName): string | null {
  if (password.length > 128) return 'password must be at most 128 characters';
  switch (policy) {
    case 'base':
      return password.length >= 8 ? null : 'password must be at least 8 characters';
    case 'strong':
      if (password.length < 10) return 'password must be at least 10 characters';
      if (
        !/[a-z]/.test(password) ||
        !/[A-Z]/.test(password) ||
        !/\d/.test(password) ||
        !/[^A-Za-z0-9]/.test(password)
      ) {
        return 'password must mix lower and upper case letters, digits and symbols';
      }
      return null;
    case 'nist':
      if ([...password].length < 8) return 'password must be at least 8 characters';
      if (COMMON.has(password.toLowerCase())) return 'password is too common';
      if (/^(.)\1+$/.test(password)) return 'password must not repeat one character';
      return null;
  }
}
