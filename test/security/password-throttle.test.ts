// Every operation that checks or sets a password counts against a throttle, not only login
// (src/app/password-client.ts). The attack: 24 wrong current passwords in a row to changePassword (or
// deleteMyAccount) with a stolen token, then the right one accepted. Now a wrong current password counts like a
// wrong login of the account's e-mail from that address, and for the account from every address: past
// LOGIN_RATE_LIMIT_MAX, even the right password is refused with RATE_LIMITED until the window ends. Sign-ups count
// against REGISTER_RATE_LIMIT_MAX, wrong reset and verification links and refused invitations likewise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';

const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
const DELETE_ME = 'mutation($p: String!) { deleteMyAccount(password: $p) }';
const REGISTER = 'mutation($i: RegisterInput!) { register(input: $i) { emailVerificationRequired } }';
const RESET = 'mutation($t: String!) { resetPassword(token: $t, password: "Another-password-2026!") { token } }';
const VERIFY = 'mutation($t: String!) { verifyEmail(token: $t) { token } }';
const ACCEPT =
  'mutation($j: String!) { acceptInvitation(jwt: $j, name: "Guest", password: "x", email: "g@x.test") { token } }';
/** LOGIN_RATE_LIMIT_MAX's and REGISTER_RATE_LIMIT_MAX's defaults. */
const LIMIT = 10;
const REGISTER_LIMIT = 5;
const NEW = 'Another-password-2026!';

const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';
const from = (address: string) => ({ 'x-forwarded-for': address });

let s: TestServer;
beforeAll(async () => {
  // The default limits (empty: the default), addresses from X-Forwarded-For.
  s = await startTestServer({
    env: { LOGIN_RATE_LIMIT_MAX: '', REGISTER_RATE_LIMIT_MAX: '', TRUST_PROXY_HOPS: '1' },
  });
});
afterAll(() => s.close());

/** A fresh player of Demo Corp with the demo password, and a token for it. */
async function freshPlayer(email: string): Promise<string> {
  const r = await s.gql(
    'mutation($i: RegisterInput!) { register(input: $i) { token } }',
    { i: { name: 'Guessed', email, password: DEMO_PASSWORD, extraFields: DEMO_EXTRA_FIELDS } },
    { 'x-app-path': 'demo', ...from(`10.1.${email.length}.${email.charCodeAt(0)}`) },
  );
  expect(codeOf(r)).toBe('OK');
  return r.data.register.token;
}

describe('changePassword and deleteMyAccount count wrong passwords like logins', () => {
  it('24 wrong current passwords in a row: 10 are checked, then even the right one is RATE_LIMITED', async () => {
    const token = await freshPlayer('guessed1@demo.test');
    const codes: string[] = [];
    for (let i = 0; i < 24; i++) {
      const r = await s.gql(CHANGE, { c: `wrong-${i}`, n: NEW }, { ...bearer(token), ...from('10.0.1.1') });
      codes.push(codeOf(r));
    }
    expect(codes.slice(0, LIMIT)).toEqual(Array(LIMIT).fill('BAD_USER_INPUT'));
    expect(new Set(codes.slice(LIMIT))).toEqual(new Set(['RATE_LIMITED']));
    const right = await s.gql(CHANGE, { c: DEMO_PASSWORD, n: NEW }, { ...bearer(token), ...from('10.0.1.1') });
    expect(codeOf(right)).toBe('RATE_LIMITED');
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // The password did not change.
    const login = await s.gql(LOGIN, { e: 'guessed1@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'demo' });
    expect(codeOf(login)).toBe('OK');
  });

  it('counts for the account from every address: a stolen token moved to new addresses gets no new tries', async () => {
    const token = await freshPlayer('guessed2@demo.test');
    for (let i = 0; i < LIMIT; i++) {
      const r = await s.gql(CHANGE, { c: `wrong-${i}`, n: NEW }, { ...bearer(token), ...from(`10.0.2.${i}`) });
      expect(codeOf(r)).toBe('BAD_USER_INPUT');
    }
    const elsewhere = await s.gql(CHANGE, { c: DEMO_PASSWORD, n: NEW }, { ...bearer(token), ...from('10.0.2.200') });
    expect(codeOf(elsewhere)).toBe('RATE_LIMITED');
  });

  it('a wrong current password counts like a wrong login: the right login from there is then refused', async () => {
    const token = await freshPlayer('guessed3@demo.test');
    for (let i = 0; i < LIMIT; i++) {
      expect(codeOf(await s.gql(CHANGE, { c: `wrong-${i}`, n: NEW }, { ...bearer(token), ...from('10.0.3.1') }))).toBe(
        'BAD_USER_INPUT',
      );
    }
    const login = await s.gql(
      LOGIN,
      { e: 'guessed3@demo.test', p: DEMO_PASSWORD },
      { 'x-app-path': 'demo', ...from('10.0.3.1') },
    );
    expect(codeOf(login)).toBe('RATE_LIMITED');
  });

  it('the right password clears the count, as a login does', async () => {
    const token = await freshPlayer('guessed4@demo.test');
    const headers = { ...bearer(token), ...from('10.0.4.1') };
    for (let i = 0; i < LIMIT - 1; i++)
      expect(codeOf(await s.gql(CHANGE, { c: `wrong-${i}`, n: NEW }, headers))).toBe('BAD_USER_INPUT');
    expect(codeOf(await s.gql(CHANGE, { c: DEMO_PASSWORD, n: NEW }, headers))).toBe('OK');
    // The change ended every session: a new one, from the same address, whose count the right password cleared.
    const again = await s.gql(
      LOGIN,
      { e: 'guessed4@demo.test', p: NEW },
      { 'x-app-path': 'demo', ...from('10.0.4.1') },
    );
    expect(codeOf(again)).toBe('OK');
    const renewed = { ...bearer(again.data.login.token), ...from('10.0.4.1') };
    for (let i = 0; i < LIMIT - 1; i++)
      expect(codeOf(await s.gql(CHANGE, { c: `wrong-${i}`, n: DEMO_PASSWORD }, renewed))).toBe('BAD_USER_INPUT');
    expect(codeOf(await s.gql(CHANGE, { c: NEW, n: DEMO_PASSWORD }, renewed))).toBe('OK');
  });

  it('deleteMyAccount: 10 wrong passwords, then the right one is RATE_LIMITED and the account stays', async () => {
    const demo = await s.t.db.prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    await s.t.db.prisma.company.update({ where: { id: demo.id }, data: { allowUserDeleteAccount: true } });
    try {
      const token = await freshPlayer('guessed5@demo.test');
      const headers = { ...bearer(token), ...from('10.0.5.1') };
      for (let i = 0; i < LIMIT; i++)
        expect(codeOf(await s.gql(DELETE_ME, { p: `wrong-${i}` }, headers))).toBe('BAD_USER_INPUT');
      expect(codeOf(await s.gql(DELETE_ME, { p: DEMO_PASSWORD }, headers))).toBe('RATE_LIMITED');
      const user = await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'guessed5@demo.test' } });
      expect(user.deletedAt).toBeNull();
    } finally {
      await s.t.db.prisma.company.update({ where: { id: demo.id }, data: { allowUserDeleteAccount: false } });
    }
  });
});

describe('login, per account from every address', () => {
  it(`one e-mail guessed from many addresses: ${LIMIT * 10} wrong logins, then the right one is refused`, async () => {
    await freshPlayer('spread@demo.test');
    const demo = { 'x-app-path': 'demo' };
    for (let a = 0; a < 10; a++)
      for (let i = 0; i < LIMIT; i++)
        expect(
          codeOf(await s.gql(LOGIN, { e: 'spread@demo.test', p: `wrong-${i}` }, { ...demo, ...from(`10.2.0.${a}`) })),
        ).toBe('UNAUTHENTICATED');
    const right = await s.gql(LOGIN, { e: 'spread@demo.test', p: DEMO_PASSWORD }, { ...demo, ...from('10.2.1.1') });
    expect(codeOf(right)).toBe('RATE_LIMITED');
    // Another person's login from those addresses is not held by this account's count.
    await freshPlayer('bystander@demo.test');
    const other = await s.gql(LOGIN, { e: 'bystander@demo.test', p: DEMO_PASSWORD }, { ...demo, ...from('10.2.0.1') });
    expect(codeOf(other)).toBe('OK');
  });
});

describe('the public operations that set a password or open an account', () => {
  it(`register: ${REGISTER_LIMIT} sign-ups per address and e-mail, ${REGISTER_LIMIT * 10} per address`, async () => {
    const demo = { 'x-app-path': 'demo' };
    const one = { name: 'Prober', email: 'probe@demo.test', password: DEMO_PASSWORD, extraFields: DEMO_EXTRA_FIELDS };
    const codes = [];
    for (let i = 0; i < REGISTER_LIMIT + 2; i++)
      codes.push(codeOf(await s.gql(REGISTER, { i: one }, { ...demo, ...from('10.0.6.1') })));
    // The first opens the account, the next four are CONFLICT, then the e-mail is throttled from this address.
    expect(codes).toEqual(['OK', ...Array(REGISTER_LIMIT - 1).fill('CONFLICT'), 'RATE_LIMITED', 'RATE_LIMITED']);
    // A refused input (a password the policy refuses) probes nothing: it is given back.
    for (let i = 0; i < REGISTER_LIMIT + 2; i++)
      expect(
        codeOf(await s.gql(REGISTER, { i: { ...one, password: 'short' } }, { ...demo, ...from('10.0.6.3') })),
      ).toBe('BAD_USER_INPUT');
    // Sign-ups the company refuses (it closed them) count, per address whatever the e-mail.
    const company = await s.t.db.prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    await s.t.db.prisma.company.update({ where: { id: company.id }, data: { disableRegister: true } });
    try {
      const many = [];
      for (let i = 0; i < REGISTER_LIMIT * 10 + 3; i++) {
        const r = await s.gql(
          REGISTER,
          { i: { ...one, email: `probe${i}@demo.test` } },
          { ...demo, ...from('10.0.6.2') },
        );
        many.push(codeOf(r));
      }
      expect(many.filter((c) => c === 'RATE_LIMITED')).toHaveLength(3);
    } finally {
      await s.t.db.prisma.company.update({ where: { id: company.id }, data: { disableRegister: false } });
    }
  });

  it(`resetPassword and verifyEmail: ${LIMIT} wrong links per address, then RATE_LIMITED`, async () => {
    for (const [doc, address] of [
      [RESET, '10.0.7.1'],
      [VERIFY, '10.0.7.2'],
    ] as const) {
      const codes = [];
      for (let i = 0; i < LIMIT + 2; i++) codes.push(codeOf(await s.gql(doc, { t: `guess-${i}` }, from(address))));
      expect(codes).toEqual([...Array(LIMIT).fill('NOT_FOUND'), 'RATE_LIMITED', 'RATE_LIMITED']);
    }
  });

  it(`acceptInvitation: ${REGISTER_LIMIT} refused accepts per address and link, then RATE_LIMITED`, async () => {
    const admin = await s.loginAs('admin');
    const invited = await s.gql(
      'mutation { createInvitation(input: { email: "invited-guess@demo.test" }) { token } }',
      {},
      { ...bearer(admin), 'x-app-path': 'demo' },
    );
    expect(codeOf(invited)).toBe('OK');
    const jwt = invited.data.createInvitation.token;
    // "x" meets no password policy: each accept is refused, and given back (the input was refused, no link tried).
    for (let i = 0; i < REGISTER_LIMIT + 1; i++)
      expect(codeOf(await s.gql(ACCEPT, { j: jwt }, from('10.0.8.1')))).toBe('BAD_USER_INPUT');
    // A link that opens nothing is counted.
    const codes = [];
    for (let i = 0; i < REGISTER_LIMIT + 1; i++)
      codes.push(codeOf(await s.gql(ACCEPT, { j: `${jwt}x` }, from('10.0.8.1'))));
    expect(codes).toEqual([...Array(REGISTER_LIMIT).fill('NOT_FOUND'), 'RATE_LIMITED']);
  });
});
