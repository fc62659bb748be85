// Password hashing (scrypt, a memory-hard KDF from node:crypto) and the company password policies.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { rateLimited } from '../domain/errors.ts';

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
 * Who asks for a derivation: the company (by id, or a name of its own for requests that name none) and the client
 * address. Capacity is shared fairly between companies, and within a company between addresses.
 */
export interface HashLane {
  company: string;
  address: string;
}

/** Seeds, scripts and tests: work nobody outside asked for, queued in a lane of its own and never refused. */
export const LOCAL_LANE: HashLane = { company: 'local', address: 'local' };

/** How password work is shared (src/config.ts sets it at start: PASSWORD_HASH_*). */
export interface PasswordWorkLimits {
  /** Derivations running at once in the process. */
  concurrency: number;
  /** Derivations one address may have waiting in one company; past it the next is refused at once. */
  queuePerAddress: number;
  /** Derivations one company may have waiting (all its addresses together). */
  queuePerCompany: number;
}

/**
 * Each derivation takes 128 MiB at the default cost and a libuv worker thread (4 in all, shared with DNS lookups
 * and file I/O): anyone can ask for one by logging in, so they queue here instead of taking the process's memory
 * and every worker. A freed slot goes to the waiting company running fewest derivations, and within it to the
 * address running fewest (round-robin among equals), so a flood from one company (or one address) waits behind
 * itself only: anyone else waits for one running derivation to end, and one turn of each other waiting lane.
 */
export const DEFAULT_PASSWORD_WORK: PasswordWorkLimits = { concurrency: 2, queuePerAddress: 16, queuePerCompany: 64 };
let limits = DEFAULT_PASSWORD_WORK;

export function setPasswordWorkLimits(next: PasswordWorkLimits): void {
  limits = next;
}

let running = 0;
let waitingCount = 0;
/** Waiters by company, then by address; among lanes alike, Map order is the turn (a served lane moves to the end). */
const waiting = new Map<string, { size: number; addresses: Map<string, Array<() => void>> }>();
/** Derivations running per company and per company and address: a freed slot goes to the lane running fewest. */
const runningBy = new Map<string, number>();
const laneKey = (lane: HashLane) => `${lane.company}\n${lane.address}`;
const runningOf = (key: string) => runningBy.get(key) ?? 0;

function started(company: string, address: string) {
  running++;
  for (const key of [company, laneKey({ company, address })]) runningBy.set(key, runningOf(key) + 1);
}

/** Derivations running and queued (tests, and anyone sizing a container, read it). */
export const derivationLoad = () => ({ running, waiting: waitingCount });

/** The refusal of a derivation over its lane's share of the queue: the client is asking faster than it is served. */
function busy(): never {
  throw rateLimited('too many password checks are waiting for this address or company: try again in 1 s', 1);
}

/** Waits for a derivation slot in the lane's turn. */
async function takeSlot(lane: HashLane): Promise<void> {
  if (running < limits.concurrency) {
    started(lane.company, lane.address);
    return;
  }
  const company = waiting.get(lane.company) ?? { size: 0, addresses: new Map<string, Array<() => void>>() };
  const queue = company.addresses.get(lane.address) ?? [];
  // An address with nothing waiting always gets its one place: a few addresses filling the company's share must not
  // refuse everyone else of that company.
  const over = queue.length >= limits.queuePerAddress || (queue.length > 0 && company.size >= limits.queuePerCompany);
  if (over && lane !== LOCAL_LANE) busy(); // local work (a seed, a script) is never refused
  await new Promise<void>((resolve) => {
    queue.push(resolve);
    if (queue.length === 1) company.addresses.set(lane.address, queue);
    if (company.size++ === 0) waiting.set(lane.company, company);
    waitingCount++;
  });
}

/** The first key (in Map order) of those running fewest derivations. */
function fewestRunning<V>(entries: Map<string, V>, runningKey: (key: string) => string): string {
  let best: string | undefined;
  for (const key of entries.keys()) {
    if (best === undefined || runningOf(runningKey(key)) < runningOf(runningKey(best))) best = key;
  }
  return best!;
}

/**
 * Ends `lane`'s derivation and hands its slot to the waiting company running fewest derivations (the longest
 * unserved among equals), and within it to the address running fewest: a company (or address) arriving while
 * another floods is next, not behind the flood's derivations already running.
 */
function releaseSlot(lane: HashLane): void {
  running--;
  for (const key of [lane.company, laneKey(lane)]) {
    const left = runningOf(key) - 1;
    if (left > 0) runningBy.set(key, left);
    else runningBy.delete(key);
  }
  if (waiting.size === 0) return;
  const companyKey = fewestRunning(waiting, (key) => key);
  const company = waiting.get(companyKey)!;
  const addressKey = fewestRunning(company.addresses, (address) => laneKey({ company: companyKey, address }));
  const queue = company.addresses.get(addressKey)!;
  const next = queue.shift()!;
  company.size--;
  waitingCount--;
  company.addresses.delete(addressKey);
  if (queue.length) company.addresses.set(addressKey, queue);
  waiting.delete(companyKey);
  if (company.size) waiting.set(companyKey, company);
  started(companyKey, addressKey);
  next(); // the slot passes straight to it, so none can slip in between
}

async function derive(
  lane: HashLane,
  password: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  keyLen: number,
): Promise<Buffer> {
  await takeSlot(lane);
  try {
    const options: ScryptOptions = { N, r, p, maxmem: memoryFor(N, r, p) };
    return await new Promise((resolve, reject) =>
      scrypt(password.normalize('NFKC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    releaseSlot(lane);
  }
}

/** `scrypt$N$r$p$salt$hash`, parameters stored so they can be raised later without breaking old hashes. */
export async function hashPassword(
  password: string,
  log2N: number = currentCost,
  lane: HashLane = LOCAL_LANE,
): Promise<string> {
  const N = 2 ** checkedCost(log2N);
  const salt = randomBytes(16);
  const key = await derive(lane, password, salt, N, R, P, KEY_LEN);
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

export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
  lane: HashLane = LOCAL_LANE,
): Promise<boolean> {
  const h = parse(stored);
  if (!h) return false;
  const key = await derive(lane, password, h.salt, h.N, h.r, h.p, h.hash.length);
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
 * for logins that name no usable account, so their response takes as long as a wrong password's.
 */
export async function verifyNoPassword(password: string, lane: HashLane = LOCAL_LANE): Promise<false> {
  const cost = currentCost;
  let dummy = dummyHashes.get(cost);
  if (!dummy) {
    dummy = hashPassword(randomBytes(16).toString('base64url'), cost);
    dummy.catch(() => dummyHashes.delete(cost));
    dummyHashes.set(cost, dummy);
  }
  await verifyPassword(password, await dummy, lane);
  return false;
}

/** The password work of one requester, queued in its lane: what the operations of src/app use. */
export function passwordWork(lane: HashLane) {
  return {
    hash: (password: string) => hashPassword(password, currentCost, lane),
    verify: (password: string, stored: string | null | undefined) => verifyPassword(password, stored, lane),
    verifyNone: (password: string) => verifyNoPassword(password, lane),
  };
}
export type PasswordWork = ReturnType<typeof passwordWork>;

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
