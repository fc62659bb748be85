// Sessions end when they should, so a stolen token stops working once its owner changes or resets the password.
// A password change or reset, a deactivation, a deletion, a role change and logoutEverywhere revoke every
// access token the person held (UNAUTHENTICATED over GraphQL and REST), on every replica, and the person's open
// subscriptions end with UNAUTHENTICATED at once; a new sign-in works, and nobody else's session ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { suiteProvider } from '../helpers/db.ts';
import { activeSubscriptions, liveClient, untilSubscribed, type LiveClient } from '../helpers/live.ts';
import { startReplicas, type Replicas } from '../helpers/replicas.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { forgeAccessToken } from '../helpers/tokens.ts';

const ME = '{ me { email role } }';
const LOGOUT = 'mutation { logoutEverywhere }';
const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
const NOTIFICATIONS = 'subscription { notificationReceived { missedEvents notification { id } } }';
const NEW_PASSWORD = 'A-new-password-2026!';
const DEMO = { 'x-app-path': 'demo' };

type Result = { data?: any; errors?: Array<{ extensions?: { code?: string } }> };

/** GraphQL and REST against one server, as a client of Demo Corp calls them. */
const client = (url: string) => ({
  async gql(token: string | null, query: string, variables: object = {}): Promise<Result> {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...DEMO, ...(token ? bearer(token) : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const { data, errors } = (await res.json()) as Result; // without the statement counts of extensions
    return errors ? { data, errors } : { data };
  },
  async login(email: string, password = DEMO_PASSWORD): Promise<string> {
    const r = await this.gql(null, 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
      e: email,
      p: password,
    });
    if (!r.data?.login) throw new Error(`login ${email}: ${JSON.stringify(r)}`);
    return r.data.login.token as string;
  },
  /** The token opens the account over GraphQL and REST. */
  async works(token: string, email: string) {
    const me = await this.gql(token, ME);
    expect(me.data?.me?.email, JSON.stringify(me)).toBe(email);
    const rest = await fetch(`${url}/tournaments/me`, { headers: { ...DEMO, ...bearer(token) } });
    expect(rest.status).toBe(200);
  },
  /** The token is refused over GraphQL and REST, with UNAUTHENTICATED and no data. */
  async refused(token: string) {
    const me = await this.gql(token, ME);
    expect(me.errors?.[0]?.extensions?.code, JSON.stringify(me)).toBe('UNAUTHENTICATED');
    expect(me.data ?? null).toBeNull();
    const rest = await fetch(`${url}/tournaments/me`, { headers: { ...DEMO, ...bearer(token) } });
    expect(rest.status).toBe(401);
    expect(((await rest.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
  },
});

describe('revoked sessions on one server', () => {
  let smtp: TestSmtp;
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let admin: string;
  const sockets: LiveClient[] = [];
  const watch = (token: string) => {
    const c = liveClient(s.url, { authorization: `Bearer ${token}`, ...DEMO });
    sockets.push(c);
    return c.subscribe(NOTIFICATIONS);
  };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    s = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL: 'https://prode.example.test' } });
    api = client(s.url);
    admin = await api.login('admin@demo.test');
  });
  afterAll(async () => {
    await Promise.all(sockets.map((c) => c.dispose()));
    await s?.close();
    await smtp?.close();
  });

  it("changePassword ends every session of the person, this one included, and nobody else's", async () => {
    const email = 'player3@demo.test';
    const [here, stolen, colleague] = [
      await api.login(email),
      await api.login(email),
      await api.login('player4@demo.test'),
    ];
    // Read once, so the server holds the rows (and responses) the old tokens were accepted with.
    await api.works(here, email);
    await api.works(stolen, email);

    const changed = await api.gql(here, CHANGE, { c: DEMO_PASSWORD, n: NEW_PASSWORD });
    expect(changed).toEqual({ data: { changePassword: true } });
    await api.refused(stolen);
    await api.refused(here);
    await api.works(await api.login(email, NEW_PASSWORD), email);
    await api.works(colleague, 'player4@demo.test');
  });

  it('resetPassword ends every earlier session and returns a token of the new version', async () => {
    const email = 'player5@demo.test';
    const stolen = await api.login(email);
    await api.works(stolen, email);
    expect(
      (await api.gql(null, 'mutation($e: String!) { requestPasswordReset(email: $e) }', { e: email })).data,
    ).toEqual({
      requestPasswordReset: true,
    });
    const [mail] = await smtp.waitFor(email);
    const link = /reset-password\?token=([\w-]+)/.exec(mail.text)?.[1];
    const reset = await api.gql(
      null,
      'mutation($t: String!, $p: String!) { resetPassword(token: $t, password: $p) { token } }',
      { t: link, p: NEW_PASSWORD },
    );
    const fresh = reset.data?.resetPassword?.token as string;
    expect(fresh, JSON.stringify(reset)).toMatch(/^ey/);
    await api.refused(stolen);
    await api.works(fresh, email);
  });

  it('logoutEverywhere ends every session of the caller; it needs one', async () => {
    const email = 'player6@demo.test';
    const [phone, laptop] = [await api.login(email), await api.login(email)];
    await api.works(phone, email);
    expect(await api.gql(laptop, LOGOUT)).toEqual({ data: { logoutEverywhere: true } });
    await api.refused(phone);
    await api.refused(laptop);
    await api.works(await api.login(email), email);
    expect((await api.gql(null, LOGOUT)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('a token signed before the version existed counts as version 0: good until the first revocation', async () => {
    const email = 'player7@demo.test';
    const user = await s.t.db.prisma.user.findFirstOrThrow({ where: { email } });
    const claims = { userId: user.id, companyId: user.companyId, role: user.role };
    const old = await forgeAccessToken(claims); // no `ver` claim
    await api.works(old, email);
    expect(await api.gql(old, LOGOUT)).toEqual({ data: { logoutEverywhere: true } });
    await api.refused(old);
    await api.refused(await forgeAccessToken({ ...claims, tokenVersion: 0 }));
    await api.works(await forgeAccessToken({ ...claims, tokenVersion: 1 }), email);
  });

  it('deactivation ends the sessions for good: a reactivation does not bring the old tokens back', async () => {
    const email = 'player8@demo.test';
    const id = s.demo.users[email];
    const old = await api.login(email);
    await api.works(old, email);
    const off = await api.gql(admin, 'mutation($u: Int!) { deactivateUser(userId: $u) { id } }', { u: id });
    expect(off.errors).toBeUndefined();
    await api.refused(old);
    const on = await api.gql(admin, 'mutation($u: Int!) { reactivateUser(userId: $u) { id } }', { u: id });
    expect(on.errors).toBeUndefined();
    await api.refused(old);
    await api.works(await api.login(email), email);
  });

  it('a role change ends the sessions of the old role', async () => {
    const email = 'player9@demo.test';
    const old = await api.login(email);
    await api.works(old, email);
    const promoted = await api.gql(
      admin,
      'mutation($u: Int!) { updateUser(userId: $u, input: { role: admin }) { role } }',
      {
        u: s.demo.users[email],
      },
    );
    expect(promoted.data?.updateUser, JSON.stringify(promoted)).toEqual({ role: 'admin' });
    await api.refused(old);
    const fresh = await api.login(email);
    expect((await api.gql(fresh, ME)).data?.me).toEqual({ email, role: 'admin' });
  });

  it('deleteUser and deleteMyAccount end every session of the person', async () => {
    const deleted = await api.login('player10@demo.test');
    await api.works(deleted, 'player10@demo.test');
    const byAdmin = await api.gql(admin, 'mutation($u: Int!) { deleteUser(userId: $u) }', {
      u: s.demo.users['player10@demo.test'],
    });
    expect(byAdmin).toEqual({ data: { deleteUser: true } });
    await api.refused(deleted);

    await s.t.db.prisma.company.update({
      where: { id: s.demo.companies.DEMO },
      data: { allowUserDeleteAccount: true },
    });
    const email = 'player11@demo.test';
    const [here, elsewhere] = [await api.login(email), await api.login(email)];
    await api.works(elsewhere, email);
    const own = await api.gql(here, 'mutation($p: String!) { deleteMyAccount(password: $p) }', { p: DEMO_PASSWORD });
    expect(own).toEqual({ data: { deleteMyAccount: true } });
    await api.refused(elsewhere);
  });

  it("open subscriptions of the person end with UNAUTHENTICATED at once; another person's stay", async () => {
    const email = 'player12@demo.test';
    const before = await activeSubscriptions(s.url);
    const [open, other] = [watch(await api.login(email)), watch(await api.login('player13@demo.test'))];
    await untilSubscribed(s.url, before + 2);
    const started = Date.now();
    expect(await api.gql(await api.login(email), LOGOUT)).toEqual({ data: { logoutEverywhere: true } });
    // Before, nothing was sent: the subscription read its caller again only at an event a minute later.
    const last = await open.next(5000);
    expect(last.errors?.[0]?.extensions?.code, JSON.stringify(last)).toBe('UNAUTHENTICATED');
    expect(await open.ended).toEqual({});
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await other.quiet(300)).toBe(true);
  });

  it('a deactivation ends the open subscriptions of the person at once', async () => {
    const email = 'player14@demo.test';
    const before = await activeSubscriptions(s.url);
    const open = watch(await api.login(email));
    await untilSubscribed(s.url, before + 1);
    const off = await api.gql(admin, 'mutation($u: Int!) { deactivateUser(userId: $u) { id } }', {
      u: s.demo.users[email],
    });
    expect(off.errors).toBeUndefined();
    const last = await open.next(5000);
    expect(last.errors?.[0]?.extensions?.code, JSON.stringify(last)).toBe('UNAUTHENTICATED');
    expect(await open.ended).toEqual({});
  });
});

describe.runIf(suiteProvider === 'postgresql')('revoked sessions across two replicas on PostgreSQL', () => {
  let replicas: Replicas;
  let a: ReturnType<typeof client>;
  let b: ReturnType<typeof client>;
  const sockets: LiveClient[] = [];

  beforeAll(async () => {
    replicas = await startReplicas(2);
    [a, b] = replicas.urls.map(client);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(sockets.map((c) => c.dispose()));
    await replicas?.stop();
  });

  it('logoutEverywhere on B refuses the old token on A at once, and ends its subscription on A', async () => {
    const email = 'player1@demo.test';
    const onA = await a.login(email);
    // A has read the user, and caches the row and its responses, before the revocation.
    await a.works(onA, email);
    await a.works(onA, email);
    const socket = liveClient(replicas.urls[0], { authorization: `Bearer ${onA}`, ...DEMO });
    sockets.push(socket);
    const open = socket.subscribe(NOTIFICATIONS);
    await untilSubscribed(replicas.urls[0], 1);

    expect(await b.gql(await b.login(email), LOGOUT)).toEqual({ data: { logoutEverywhere: true } });
    await a.refused(onA);
    const last = await open.next(5000);
    expect(last.errors?.[0]?.extensions?.code, JSON.stringify(last)).toBe('UNAUTHENTICATED');
    expect(await open.ended).toEqual({});
  });

  it('changePassword on B refuses the old token on A at once; the new password works on both', async () => {
    const email = 'player2@demo.test';
    const onA = await a.login(email);
    await a.works(onA, email);
    await a.works(onA, email);
    const onB = await b.login(email);
    expect(await b.gql(onB, CHANGE, { c: DEMO_PASSWORD, n: NEW_PASSWORD })).toEqual({ data: { changePassword: true } });
    await a.refused(onA);
    await b.refused(onB);
    await a.works(await a.login(email, NEW_PASSWORD), email);
    await b.works(await b.login(email, NEW_PASSWORD), email);
  });
});
