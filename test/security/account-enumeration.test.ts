// No account enumeration. Where the company requires a verified e-mail (register returns no token), register used
// to respond to a taken e-mail with CONFLICT, at once (no hash): by response and by time it told who has an account.
// Now a taken e-mail gets the response a new one gets, after the same work, and the address's owner is mailed that
// someone tried. And the public account operations report no SQL statement count (x-sql-statements,
// extensions.sqlStatements), which differed between an account found and none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const REGISTER =
  'mutation($i: RegisterInput!) { register(input: $i) { token emailVerificationRequired user { id email } } }';
const DEMO = { 'x-app-path': 'demo' };
const PASSWORD = 'Sign-up-password-2026!';

let smtp: TestSmtp;
let s: TestServer;
beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL: 'https://prode.example.test' } });
  const demo = await s.t.db.prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
  await s.t.db.prisma.company.update({ where: { id: demo.id }, data: { requiresEmailVerification: true } });
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

const person = (email: string) => ({ name: 'Someone', email, password: PASSWORD, extraFields: DEMO_EXTRA_FIELDS });
/** What a client sees of a response: status, body, and the headers that are not per request. */
const seen = (r: GqlResult<unknown>) => ({
  status: r.status,
  data: r.data,
  errors: r.errors,
  extensions: r.extensions,
  sqlStatements: r.headers.get('x-sql-statements'),
});

describe('register where the company requires a verified e-mail', () => {
  it('responds to a taken e-mail exactly as to a new one, and tells the owner by e-mail', async () => {
    const fresh = await s.gql(REGISTER, { i: person('brand-new@example.test') }, DEMO);
    const taken = await s.gql(REGISTER, { i: person('player1@demo.test') }, DEMO);
    expect(fresh.data.register).toEqual({ token: null, emailVerificationRequired: true, user: null });
    expect(seen(taken)).toEqual(seen(fresh));

    const [notice] = await smtp.waitFor('player1@demo.test');
    expect(notice.subject).toBe('Someone tried to sign up to Demo Corp with your e-mail');
    expect(notice.text).toMatch(/already has one\. No new account was made/);
    expect(notice.text).not.toMatch(/verify-email\?token=/);
    const [welcome] = await smtp.waitFor('brand-new@example.test');
    expect(welcome.subject).toBe('Confirm your e-mail for Demo Corp');
    // The taken account is as it was: its password still opens it.
    const login = await s.gql(
      'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
      { e: 'player1@demo.test', p: DEMO_PASSWORD },
      DEMO,
    );
    expect(login.errors).toBeUndefined();
    expect(await s.t.db.prisma.user.count({ where: { email: 'player1@demo.test' } })).toBe(1);
  });

  it('takes as long for a taken e-mail as for a new one (both hash the password)', async () => {
    const time = async (email: string) => {
      const start = performance.now();
      const r = await s.gql(REGISTER, { i: person(email) }, DEMO);
      expect(r.errors).toBeUndefined();
      return performance.now() - start;
    };
    // One of each first, not counted (the first calls compile their paths), then nine pairs, alternating.
    await time('timing-warm@example.test');
    await time('player2@demo.test');
    const fresh: number[] = [];
    const taken: number[] = [];
    for (let i = 0; i < 9; i++) {
      fresh.push(await time(`timing-${i}@example.test`));
      taken.push(await time('player2@demo.test'));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    // A CONFLICT returned before the hash took a few milliseconds against a derivation's tens to hundreds.
    expect(median(taken)).toBeGreaterThan(median(fresh) * 0.6);
    expect(median(taken)).toBeLessThan(median(fresh) / 0.6);
  });
});

describe('public account operations report no SQL statement count', () => {
  const ops: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'login',
      'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
      { e: 'player1@demo.test', p: 'wrong-password' },
      { e: 'nobody@demo.test', p: 'wrong-password' },
    ],
    [
      'requestPasswordReset',
      'mutation($e: String!) { requestPasswordReset(email: $e) }',
      { e: 'player1@demo.test' },
      { e: 'nobody@demo.test' },
    ],
    [
      'requestEmailVerification',
      'mutation($e: String!) { requestEmailVerification(email: $e) }',
      { e: 'brand-new@example.test' },
      { e: 'nobody@demo.test' },
    ],
    ['register', REGISTER, { i: person('player3@demo.test') }, { i: person('another-new@example.test') }],
    [
      'resetPassword',
      'mutation($t: String!) { resetPassword(token: $t, password: "Another-pass-2026!") { token } }',
      { t: 'not-a-token' },
      { t: 'neither-a-token' },
    ],
    ['verifyEmail', 'mutation($t: String!) { verifyEmail(token: $t) { token } }', { t: 'x' }, { t: 'y' }],
  ];

  it.each(ops)('%s: neither the x-sql-statements header nor extensions.sqlStatements', async (_name, doc, a, b) => {
    for (const variables of [a, b]) {
      const r = await s.gql(doc, variables, DEMO);
      expect(r.headers.get('x-sql-statements')).toBeNull();
      expect(r.extensions?.sqlStatements).toBeUndefined();
    }
  });

  it('REST POST /auth/login alike; other operations still report theirs', async () => {
    const rest = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...DEMO },
      body: JSON.stringify({ email: 'player1@demo.test', password: 'wrong-password' }),
    });
    expect(rest.status).toBe(401);
    expect(rest.headers.get('x-sql-statements')).toBeNull();
    const other = await s.gql('{ __typename }', {}, DEMO);
    expect(other.headers.get('x-sql-statements')).not.toBeNull();
    expect(other.extensions?.sqlStatements).toBeTypeOf('number');
  });
});
