// Runs rows of the matrix (matrix.ts) as tests, on a server of their own with the fixture (fixture.ts): one test
// per row, then the secrets check over every response those rows received. Each test file runs one face's rows, so a
// file's server sees only that face's writes.
import { parse } from 'csv-parse/sync';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, TEST_JWT_SECRET, type TestServer } from '../../helpers/app.ts';
import { activeSubscriptions, liveClient, untilSubscribed } from '../../helpers/live.ts';
import { createFixture, type Ids } from './fixture.ts';
import { DEFAULT_FORBID, MARKERS, type Actor, type Case, type Headers } from './matrix.ts';

/** Stands in for the ids while the tests are collected: `x-app-company: <globex>`. */
const namesOf = (prefix: string): unknown =>
  new Proxy({}, { get: (_t, key) => (key === 'jwt' ? namesOf('jwt.') : `<${prefix}${String(key)}>`) });
const ID_NAMES = namesOf('') as Ids;

/** The test's name: "operation as caller [headers]: why". */
export const labelOf = (c: Case) => {
  const given = typeof c.h === 'function' ? c.h(ID_NAMES) : c.h;
  const h = given
    ? Object.entries(given)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')
    : 'no tenant header';
  return `${c.op} as ${c.as} [${h}]: ${c.why}`;
};

const REST_STATUS: Record<string, number> = {
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  UNAUTHENTICATED: 401,
  BAD_USER_INPUT: 400,
};
type GraphqlResponse = { data?: Record<string, unknown> | null; errors?: Array<{ extensions?: { code?: string } }> };

export function runMatrix(cases: Case[]): void {
  let srv: TestServer;
  let x: Ids;
  let tokens: Record<Exclude<Actor, 'anon'>, string>;
  /** Every body these rows received, for the secrets check. */
  const responses: Array<{ label: string; text: string }> = [];

  const headersOf = (c: Case): Headers => ({
    ...(c.as === 'anon' ? {} : bearer(tokens[c.as])),
    ...(typeof c.h === 'function' ? c.h(x) : c.h),
  });

  /** One request: its outcome (OK or the error code), the operation's data, and the raw body. */
  async function run(c: Case): Promise<{ outcome: string; data: unknown; text: string }> {
    const headers = headersOf(c);
    if (c.rest) {
      const body = c.rest.body?.(x);
      const res = await fetch(`${srv.url}${c.rest.path(x)}`, {
        method: c.rest.method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      const text = await res.text();
      // The sign-in routes send a browser on, or show it a page.
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location)
        return { outcome: 'REDIRECT', data: location, text: `${location}\n${text}` };
      if (res.headers.get('content-type')?.startsWith('text/html')) return { outcome: 'PAGE', data: text, text };
      // The exports answer CSV: their rows, as objects by the header row.
      if (res.status === 200 && res.headers.get('content-type')?.startsWith('text/csv'))
        return { outcome: 'OK', data: parse(text, { columns: true }), text };
      const json = JSON.parse(text);
      if (res.status === 200) return { outcome: 'OK', data: json, text };
      expect(res.status, `${labelOf(c)}: status ${res.status} does not match code ${json.code}`).toBe(
        REST_STATUS[json.code] ?? res.status,
      );
      return { outcome: String(json.code), data: null, text };
    }
    if (c.event) return subscribeOnce(c, headers);
    const res = await fetch(`${srv.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: typeof c.doc === 'string' ? c.doc : print(c.doc!), variables: c.vars?.(x) ?? {} }),
    });
    const text = await res.text();
    const json = JSON.parse(text) as GraphqlResponse;
    if (json.errors?.length) {
      // A refusal returns no data at all for the operation.
      expect(json.data?.[c.op] ?? null, `${labelOf(c)}: an error response carried data`).toBeNull();
      return { outcome: String(json.errors[0].extensions?.code), data: null, text };
    }
    return { outcome: 'OK', data: json.data?.[c.op], text };
  }

  /** A subscription over WebSocket: refused at once, or held by the server and responding to the case's event. */
  async function subscribeOnce(c: Case, headers: Headers): Promise<{ outcome: string; data: unknown; text: string }> {
    const before = await activeSubscriptions(srv.url);
    const client = liveClient(srv.url, headers);
    try {
      const watch = client.subscribe(typeof c.doc === 'string' ? c.doc : print(c.doc!), c.vars?.(x) ?? {});
      const held = untilSubscribed(srv.url, before + 1).then(
        () => 'held' as const,
        () => 'not held' as const,
      );
      // The first result: a refusal sent at once, or the response to the event published once the server holds it.
      const first = watch.next(5000);
      first.catch(() => {});
      if ((await Promise.race([held, first])) === 'held')
        srv.app.live.publish(await c.event!(x, srv.t.db.prisma, c.as));
      const result = await first;
      const text = JSON.stringify(result);
      if (result.errors?.length) {
        expect(result.data?.[c.op] ?? null, `${labelOf(c)}: an error response carried data`).toBeNull();
        return { outcome: String(result.errors[0].extensions?.code), data: null, text };
      }
      return { outcome: 'OK', data: result.data?.[c.op], text };
    } finally {
      await client.dispose();
      // The next row counts from a server that has let this one go.
      while ((await activeSubscriptions(srv.url)) > before) await new Promise((r) => setTimeout(r, 10));
    }
  }

  beforeAll(async () => {
    srv = await startTestServer();
    x = await createFixture(srv);
    tokens = {
      player: await srv.loginAs('player'),
      admin: await srv.loginAs('admin'),
      reseller: await srv.loginAs('reseller'),
      globexPlayer: await srv.login('player1@globex.test', 'globex'),
    };
  });
  afterAll(() => srv?.close());

  describe('tenant isolation matrix', () => {
    for (const c of cases) {
      const label = labelOf(c);
      it(label, async () => {
        const p = srv.t.db.prisma;
        const before = c.unchanged ? await c.unchanged(p, x) : undefined;
        const { outcome, data, text } = await run(c);
        responses.push({ label, text });
        for (const company of c.forbid ?? DEFAULT_FORBID[c.as]) {
          const leak = MARKERS[company].exec(text);
          const around = leak ? text.slice(Math.max(0, leak.index - 150), leak.index + 150) : '';
          expect(leak, `LEAK: ${label} returned data of ${company}: ...${around}...`).toBeNull();
        }
        expect([c.expect].flat(), `${label}: returned ${outcome}: ${text.slice(0, 600)}`).toContain(outcome);
        if (outcome === 'OK' && c.check) await c.check(data, x, p);
        if (c.unchanged) {
          expect(await c.unchanged(p, x), `WRITE WENT THROUGH: ${label} changed the database`).toEqual(before);
        }
      });
    }

    const SECRETS_CHECK =
      'no response of the matrix carries a password hash, a recovery token, a skip-login token, ' +
      'a sign-in client secret or the JWT secret';
    it(SECRETS_CHECK, async () => {
      expect(responses.length).toBeGreaterThan(0);
      const p = srv.t.db.prisma;
      const users = await p.user.findMany({ select: { email: true, passwordHash: true, recoverPasswordToken: true } });
      const companies = await p.company.findMany({ select: { code: true, skipLoginToken: true } });
      const secrets: Array<[string, string]> = [
        ['the JWT secret', TEST_JWT_SECRET],
        ['the JWT secret', srv.config.jwtSecret],
        ['a password hash', 'scrypt$'],
      ];
      for (const u of users) {
        expect(u.passwordHash, `${u.email} has a password hash`).toBeTruthy();
        const [, , , , salt, key] = u.passwordHash!.split('$');
        secrets.push([`${u.email}'s password hash`, u.passwordHash!]);
        secrets.push([`${u.email}'s password salt`, salt], [`${u.email}'s password key`, key]);
        // Users the matrix created (acceptInvitation, register) have none; every other user has one.
        if (!/^(fresh2?|isolation)@globex\.test$/.test(u.email)) {
          expect(u.recoverPasswordToken, `${u.email} has a recovery token`).toBeTruthy();
        }
        if (u.recoverPasswordToken) secrets.push([`${u.email}'s recoverPasswordToken`, u.recoverPasswordToken]);
      }
      for (const c of companies) {
        expect(c.skipLoginToken, `${c.code} has a skip-login token`).toBeTruthy();
        secrets.push([`${c.code}'s skipLoginToken`, c.skipLoginToken!]);
      }
      for (const sso of await p.companySso.findMany()) {
        secrets.push([`company ${sso.companyId}'s sign-in client secret`, sso.clientSecret]);
      }
      const leaks = responses.flatMap(({ label, text }) =>
        secrets.filter(([, value]) => text.includes(value)).map(([what]) => `${label}: ${what}`),
      );
      expect(leaks, 'secrets in responses').toEqual([]);
    });
  });
}
