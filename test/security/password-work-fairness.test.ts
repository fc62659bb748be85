// Password work is shared fairly: scrypt derivations queue round-robin over companies, then over addresses within
// a company, each lane's waiting share bounded (src/auth/passwords.ts). The attacks: 40 wrong changePassword calls
// from one player, 40 sign-ups against a full company (whose seats are counted before any hashing), and a sign-up
// flood on one company from one address. With one shared queue each would make another company's login (or the
// same company's, from another address) wait for every derivation queued before it: 30 s and a 504 in production.
// Here the other login waits for the derivations already running and one turn, whatever is queued: within 2 s.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_WORK,
  derivationLoad,
  hashPassword,
  passwordWork,
  setPasswordWorkLimits,
} from '../../src/auth/passwords.ts';
import { bearer, DEMO_PASSWORD, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';

const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';
const tally = (values: string[]) => {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
};

describe('the queue of derivations', () => {
  afterEach(() => setPasswordWorkLimits(DEFAULT_PASSWORD_WORK));

  // Thirty queued from one lane, then one from another. The old single queue finished the other last (31st); the
  // fair one gives it the first freed slot. Derivation times vary on a busy machine, so it is held to the first 12.
  it("serves companies in turn: one company's 30 queued derivations do not delay another's one", async () => {
    setPasswordWorkLimits({ concurrency: 2, queuePerAddress: 64, queuePerCompany: 64 });
    const stored = await hashPassword('the-password', 14);
    const done: string[] = [];
    const flood = passwordWork({ company: 'A', address: '10.0.0.1' });
    const floods = Array.from({ length: 30 }, (_, i) => flood.verify('wrong', stored).then(() => done.push(`A${i}`)));
    const other = passwordWork({ company: 'B', address: '10.0.0.2' })
      .verify('wrong', stored)
      .then(() => done.push('B'));
    await Promise.all([...floods, other]);
    expect(done.indexOf('B'), done.join(' ')).toBeLessThan(12);
    expect(derivationLoad()).toEqual({ running: 0, waiting: 0 });
  });

  it('serves the addresses of one company in turn', async () => {
    setPasswordWorkLimits({ concurrency: 2, queuePerAddress: 64, queuePerCompany: 64 });
    const stored = await hashPassword('the-password', 14);
    const done: string[] = [];
    const flood = passwordWork({ company: 'A', address: '10.0.0.1' });
    const floods = Array.from({ length: 30 }, (_, i) => flood.verify('wrong', stored).then(() => done.push(`F${i}`)));
    const owner = passwordWork({ company: 'A', address: '10.0.0.9' })
      .verify('wrong', stored)
      .then(() => done.push('owner'));
    await Promise.all([...floods, owner]);
    expect(done.indexOf('owner'), done.join(' ')).toBeLessThan(12);
  });

  it("refuses at once what is past a lane's share (RATE_LIMITED), never another lane's", async () => {
    setPasswordWorkLimits({ concurrency: 2, queuePerAddress: 4, queuePerCompany: 6 });
    const stored = await hashPassword('the-password', 14);
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'checked',
        (err: { extensions?: { code?: string } }) => err.extensions?.code ?? 'error',
      );
    const one = passwordWork({ company: 'A', address: '10.0.0.1' });
    const flood = Array.from({ length: 30 }, () => outcome(one.verify('wrong', stored)));
    // Another address of A gets what is left of A's share (6 - 4), and B its own.
    const second = Array.from({ length: 4 }, () =>
      outcome(passwordWork({ company: 'A', address: '10.0.0.2' }).verify('wrong', stored)),
    );
    // Past the company's share, an address with nothing waiting still gets its one place.
    const newcomers = Array.from({ length: 3 }, (_, i) =>
      outcome(passwordWork({ company: 'A', address: `10.0.1.${i}` }).verify('wrong', stored)),
    );
    const other = Array.from({ length: 4 }, () =>
      outcome(passwordWork({ company: 'B', address: '10.0.0.3' }).verify('wrong', stored)),
    );
    expect(tally(await Promise.all(flood))).toEqual({ checked: 2 + 4, RATE_LIMITED: 24 });
    expect(tally(await Promise.all(second))).toEqual({ checked: 2, RATE_LIMITED: 2 });
    expect(tally(await Promise.all(newcomers))).toEqual({ checked: 3 });
    expect(tally(await Promise.all(other))).toEqual({ checked: 4 });
    expect(derivationLoad()).toEqual({ running: 0, waiting: 0 });
  });
});

const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
const REGISTER = 'mutation($i: RegisterInput!) { register(input: $i) { emailVerificationRequired } }';
const FLOOD = 40;

describe('a flood of password work against one company, over HTTP', () => {
  let s: TestServer;
  let quiet: number;
  const from = (address: string) => ({ 'x-forwarded-for': address });

  /** Milliseconds the other company's player takes to log in. */
  const otherLogin = async (headers: Record<string, string> = from('10.9.9.9')) => {
    const start = performance.now();
    const r = await s.gql(LOGIN, { e: 'player1@globex.test', p: DEMO_PASSWORD }, headers);
    expect(codeOf(r)).toBe('OK');
    return performance.now() - start;
  };
  /**
   * Within 2 s, or 5 times the quiet login when the shared machine makes even that slower: the old single queue
   * made it wait for every derivation queued before it, 20 rounds of two (3 to 7 s against a quiet 160 ms).
   */
  const bound = () => Math.max(2000, 5 * quiet);
  /** The other login's median time with nothing else running, measured just before each flood. */
  const measureQuiet = async () => {
    const times = [];
    for (let i = 0; i < 3; i++) times.push(await otherLogin());
    quiet = times.sort((a, b) => a - b)[1];
  };
  /** Waits until the flood's derivations queue (or, where none is made, a moment for its requests to arrive). */
  const floodArrived = async () => {
    const until = performance.now() + 1000;
    while (derivationLoad().waiting < 10 && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
  };

  beforeAll(async () => {
    // The default throttles would stop most of each flood: this is the queue's share alone. Addresses come from
    // X-Forwarded-For (one proxy hop trusted), so a test speaks from several.
    s = await startTestServer({ env: { TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(() => s.close());

  it("40 wrong changePassword calls from one player: another company's login stays within 2 s", async () => {
    const token = await s.loginAs('player');
    await measureQuiet();
    const flood = Promise.all(
      Array.from({ length: FLOOD }, () =>
        s.gql(CHANGE, { c: 'wrong-password', n: 'Another-password-2026!' }, { ...bearer(token), ...from('10.0.0.1') }),
      ),
    );
    await floodArrived();
    const during = await otherLogin();
    const byCode = tally((await flood).map(codeOf));
    expect(byCode.BAD_USER_INPUT, JSON.stringify(byCode)).toBeGreaterThan(0);
    expect(during, `quiet ${quiet.toFixed(0)} ms`).toBeLessThan(bound());
  });

  it("40 sign-ups against a full company: none is hashed, and another company's login stays within 2 s", async () => {
    const demo = await s.t.db.prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const active = await s.t.db.prisma.user.count({ where: { companyId: demo.id, deletedAt: null } });
    await s.t.db.prisma.company.update({ where: { id: demo.id }, data: { maxUsersAmount: active } });
    try {
      await measureQuiet();
      const flood = Promise.all(
        Array.from({ length: FLOOD }, (_, i) =>
          s.gql(
            REGISTER,
            {
              i: {
                name: 'Flood',
                email: `full${i}@flood.test`,
                password: 'Flood-password-2026!',
                extraFields: DEMO_EXTRA_FIELDS,
              },
            },
            { 'x-app-path': 'demo', ...from('10.0.0.2') },
          ),
        ),
      );
      await floodArrived();
      const during = await otherLogin();
      expect(tally((await flood).map(codeOf))).toEqual({ FORBIDDEN: FLOOD });
      expect(during, `quiet ${quiet.toFixed(0)} ms`).toBeLessThan(bound());
    } finally {
      await s.t.db.prisma.company.update({ where: { id: demo.id }, data: { maxUsersAmount: demo.maxUsersAmount } });
    }
  });

  it("40 sign-ups on one company from one address: its admin's login, from another address, within 2 s", async () => {
    await measureQuiet();
    const flood = Promise.all(
      Array.from({ length: FLOOD }, (_, i) =>
        s.gql(
          REGISTER,
          {
            i: {
              name: 'Flood',
              email: `open${i}@flood.test`,
              password: 'Flood-password-2026!',
              extraFields: DEMO_EXTRA_FIELDS,
            },
          },
          { 'x-app-path': 'demo', ...from('10.0.0.3') },
        ),
      ),
    );
    await floodArrived();
    const start = performance.now();
    const admin = await s.gql(
      LOGIN,
      { e: 'admin@demo.test', p: DEMO_PASSWORD },
      { 'x-app-path': 'demo', ...from('10.0.0.4') },
    );
    const during = performance.now() - start;
    expect(codeOf(admin)).toBe('OK');
    // Past the address's share the flood is refused at once; what was queued is served.
    const byCode = tally((await flood).map(codeOf));
    expect(byCode.OK, JSON.stringify(byCode)).toBeGreaterThan(0);
    expect(during, `quiet ${quiet.toFixed(0)} ms`).toBeLessThan(bound());
  });
});
