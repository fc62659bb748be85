// npm start's life on the suite's database: it migrates and seeds an empty database once, serves /healthz and
// /readyz, drains on SIGTERM with requests in flight, and a production start loads no demo data (operator:create
// makes the first operator). (startup-env.test.ts and startup-config-errors.test.ts: .env and bad settings;
// startup-runtime.test.ts: the runtime's own settings.)
import { describe, expect, it } from 'vitest';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';
import { runScript, startService } from '../helpers/process.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-start-');

describe('npm start', () => {
  it(
    `migrates, seeds an empty ${suiteProvider} database, serves /healthz and /readyz, and drains on ` + `SIGTERM`,
    async () => {
      const { target, drop } = await emptyTarget();
      const dataDir = tempDir();
      const env = {
        DATA_DIR: dataDir,
        DATABASE_URL: target.provider === 'postgresql' ? target.url : undefined,
        LOG_LEVEL: 'info',
      };
      try {
        const service = await startService(env);
        const health = await fetch(`${service.url}/healthz`);
        expect(health.status).toBe(200);
        expect(health.headers.get('x-request-id')).toBeTruthy();
        const ready = await fetch(`${service.url}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ status: 'ready', database: suiteProvider });
        expect(await service.stop('SIGTERM')).toBe(0);
        expect(service.output()).toMatch(/seeded the demo data/);
        // Every line it printed, from migrations to shutdown, is a JSON log line.
        const lines = service.output().trim().split('\n');
        const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
        expect(messages).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^applied migrations: /),
            expect.stringMatching(/^empty database: seeded the demo data/),
            'prode gateway ready',
            expect.stringMatching(/^SIGTERM: draining/),
          ]),
        );

        // A second start finds the data and neither migrates nor seeds again.
        const again = await startService(env);
        expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
        expect(await again.stop('SIGINT')).toBe(0);
        expect(again.output()).not.toMatch(/seeded|applied migrations/);
      } finally {
        await drop();
      }
    },
  );

  it('SIGTERM lets requests already in flight finish, then exits 0', async () => {
    const { target, drop } = await emptyTarget();
    // As in production: libraries that react to signals only outside NODE_ENV=test (Apollo did) must not interfere.
    const env = {
      DATA_DIR: tempDir(),
      DATABASE_URL: target.provider === 'postgresql' ? target.url : undefined,
      NODE_ENV: 'production',
      JWT_SECRET: 's'.repeat(40),
      SEED_ON_EMPTY: 'true',
    };
    try {
      const service = await startService(env);
      // Each login costs one scrypt on the libuv pool (4 threads): 16 of them keep the server busy for a while.
      const logins = Array.from({ length: 16 }, (_, i) =>
        fetch(`${service.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
          body: JSON.stringify({ email: `player${i + 1}@demo.test`, password: 'Prode-demo-2026!' }),
        }).then(async (r) => ({ status: r.status, at: Date.now(), body: (await r.json()) as { token?: string } })),
      );
      const first = await Promise.race(logins);
      const signalledAt = Date.now();
      const exited = service.stop('SIGTERM');
      // While draining it still responds, but tells load balancers to go away.
      await new Promise((r) => setTimeout(r, 200));
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('connection')).toBe('close');
      expect(await ready.json()).toMatchObject({ status: 'draining' });
      const results = await Promise.all(logins);
      expect(results.map((a) => a.status)).toEqual(Array(16).fill(200));
      expect(results.every((a) => a.body.token)).toBe(true);
      expect(results.some((a) => a.at > signalledAt)).toBe(true); // some were still in flight at the signal
      expect(first.status).toBe(200);
      expect(await exited).toBe(0);
      await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    } finally {
      await drop();
    }
  });

  it(
    'a production start on an empty database loads no demo data: no demo login works; operator:create makes the ' +
      'first operator',
    async () => {
      const { target, drop } = await emptyTarget();
      const env = {
        DATA_DIR: tempDir(),
        DATABASE_URL: target.provider === 'postgresql' ? target.url : undefined,
        NODE_ENV: 'production',
        JWT_SECRET: 's'.repeat(40),
        LOG_LEVEL: 'info',
      };
      try {
        const service = await startService(env);
        expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
        const logins = [
          ['manager@partners.test', 'partners'],
          ['admin@demo.test', 'demo'],
          ['player1@demo.test', 'demo'],
          ['manager@partners.test', undefined],
        ];
        for (const [email, path] of logins) {
          const rest = await fetch(`${service.url}/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(path ? { 'x-app-path': path } : {}) },
            body: JSON.stringify({ email, password: 'Prode-demo-2026!' }),
          });
          expect(rest.status, `${email} over REST`).not.toBe(200);
          const gql = await fetch(`${service.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query: `mutation { login(email: "${email}", password: "Prode-demo-2026!") { token } }`,
            }),
          });
          const body = (await gql.json()) as { data?: { login?: { token?: string } } | null };
          expect(body.data?.login?.token, `${email} over GraphQL`).toBeUndefined();
        }
        expect(await service.stop('SIGTERM')).toBe(0);
        expect(service.output()).not.toMatch(/seeded the demo data/);
        expect(service.output()).toMatch(/no demo data loaded/);

        // The README's path to the first operator: npm run operator:create prints a one-time link to set the password.
        const bad = runScript('scripts/operator-create.ts', env, ['--email', 'not-an-email']);
        expect(await bad.exited).toBe(2);
        const created = runScript('scripts/operator-create.ts', env, ['--email', 'Ops@Example.com']);
        expect(await created.exited, created.output()).toBe(0);
        const link = /set the password within 72 hours[^:]*: (\S+)/.exec(created.output())?.[1];
        expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[\w-]{43}$/);
        const setupToken = new URL(link!).searchParams.get('token')!;
        const password = 'Operator-password-2026!';
        const again = runScript('scripts/operator-create.ts', env, ['--email', 'ops@example.com']);
        expect(await again.exited).toBe(1);
        expect(again.output()).toMatch(/already has an account in company OPERATOR/);

        const restarted = await startService(env);
        const noPasswordYet = await fetch(`${restarted.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-path': 'operator' },
          body: JSON.stringify({ email: 'ops@example.com', password }),
        });
        expect(noPasswordYet.status).toBe(401);
        const reset = async () => {
          const res = await fetch(`${restarted.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query: 'mutation($t: String!, $p: String!) { resetPassword(token: $t, password: $p) { user { email } } }',
              variables: { t: setupToken, p: password },
            }),
          });
          return (await res.json()) as { data?: unknown; errors?: Array<{ extensions: { code: string } }> };
        };
        expect((await reset()).data).toEqual({ resetPassword: { user: { email: 'ops@example.com' } } });
        // Single use: the link opens the account once.
        expect((await reset()).errors?.[0].extensions.code).toBe('NOT_FOUND');
        const login = await fetch(`${restarted.url}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-path': 'operator' },
          body: JSON.stringify({ email: 'ops@example.com', password }),
        });
        expect(login.status).toBe(200);
        const { token } = (await login.json()) as { token: string };
        const me = await fetch(`${restarted.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: '{ me { email role company { code } } }' }),
        });
        expect(((await me.json()) as { data: unknown }).data).toEqual({
          me: { email: 'ops@example.com', role: 'manager', company: { code: 'OPERATOR' } },
        });
        expect(await restarted.stop('SIGTERM')).toBe(0);
      } finally {
        await drop();
      }
    },
  );
});
