// PostgreSQL goes away under a running server and comes back: /readyz and every request say so quickly and
// clearly (503 SERVICE_UNAVAILABLE), the process keeps serving, and everything works again afterwards.
// Runs in both suite runs on a private cluster, so the suite's own server is never stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';
import { postgresBinDir, startPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';

const json = { 'content-type': 'application/json' };
// CI installs PostgreSQL, so there this test must run; elsewhere it needs the server binaries.
const runnable = process.env.CI === 'true' || postgresBinDir() !== null;

describe.runIf(runnable)('PostgreSQL stopped and started under a running server', () => {
  let cluster: PgCluster;
  let s: TestServer;
  let url: string;

  beforeAll(async () => {
    cluster = await startPgCluster();
    s = await startTestServer({ target: { provider: 'postgresql', url: cluster.url } });
    url = s.url;
  }, 180_000);

  afterAll(async () => {
    await s?.close();
    cluster?.destroy();
  });

  const login = () =>
    fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { ...json, 'x-app-path': 'demo' },
      body: JSON.stringify({ email: 'player1@demo.test', password: DEMO_PASSWORD }),
    });
  const me = (token: string) =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ me { email } }' }),
    });
  const tournaments = (token: string) =>
    fetch(`${url}/tournaments/me`, { headers: { authorization: `Bearer ${token}`, 'x-app-path': 'demo' } });

  it('turns /readyz and requests into fast 503s while it is down, and recovers when it is back', async () => {
    const first = await login();
    expect(first.status).toBe(200);
    const { token } = (await first.json()) as { token: string };
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    cluster.stop();
    // Readiness shares one ping per second: the probe may lag the outage by up to that.
    await new Promise((r) => setTimeout(r, 1100));

    const t0 = Date.now();
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', database: 'postgresql' });

    const gql = await me(token);
    expect(gql.status).toBe(503);
    const gqlBody = (await gql.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(gqlBody.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(gqlBody.errors[0].message).toBe('the database is unavailable: try again shortly');

    const rest = await tournaments(token);
    expect(rest.status).toBe(503);
    expect(await rest.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'SERVICE_UNAVAILABLE',
      message: 'the database is unavailable: try again shortly',
    });

    const loginDown = await login();
    expect(loginDown.status).toBe(503);
    // Fast: a refused connection is reported at once, not after a pool or request timeout.
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    cluster.start();
    await new Promise((r) => setTimeout(r, 1100));

    // Ready again once the live feed has listened again (it retries on its own timer: on a loaded machine, a
    // little later than the database answers).
    const readyBy = Date.now() + 10_000;
    let back = await fetch(`${url}/readyz`);
    while (back.status !== 200 && Date.now() < readyBy) {
      await new Promise((r) => setTimeout(r, 200));
      back = await fetch(`${url}/readyz`);
    }
    expect(back.status, await back.text()).toBe(200);
    // The pool reconnects on demand: the first requests after the restart succeed.
    expect((await me(token)).status).toBe(200);
    expect((await tournaments(token)).status).toBe(200);
    expect((await login()).status).toBe(200);
  });
});
