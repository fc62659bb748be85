import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';
import { ROOT, runScript, startService } from '../helpers/process.ts';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'prode-start-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('.env', () => {
  it('is read under the environment: its variables apply, the environment wins, one line says so', async () => {
    const dir = tempDir();
    const file = join(dir, '.env');
    writeFileSync(file, '# as .env.example says\nPORT=1\nSQL_STATS=true\nGRAPHQL_MAX_ALIASES=2\n');
    const service = await startService({ DATA_DIR: dir, ENV_FILE: file, LOG_LEVEL: 'info' });
    try {
      // PORT came from the environment (startService's free port), not the file's 1.
      const res = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ a: __typename b: __typename c: __typename }' }),
      });
      const body = (await res.json()) as { errors?: Array<{ message: string }> };
      expect(body.errors?.[0].message).toMatch(/aliases/);
      const ok = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(ok.headers.get('x-sql-statements')).not.toBeNull();
      const ready = service
        .output()
        .split('\n')
        .find((line) => line.includes('prode gateway ready'));
      expect(JSON.parse(ready!).envFile).toBe(`read ${file}: 2 variables set from it; the environment's own PORT kept`);
    } finally {
      await service.stop();
    }
  });

  it('is read by the scripts too (npm run db:migrate migrates the database the file names)', async () => {
    const dir = tempDir();
    const file = join(dir, '.env');
    writeFileSync(file, `DATABASE_URL=file:${join(dir, 'from-dotenv.db')}\n`);
    const run = runScript('scripts/db-migrate.ts', { ENV_FILE: file, DATABASE_URL: undefined });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain(`sqlite:${join(dir, 'from-dotenv.db')}`);
  });

  it('.env.example copied as it is starts the server', async () => {
    const service = await startService({ DATA_DIR: tempDir(), ENV_FILE: join(ROOT, '.env.example') });
    try {
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('named by ENV_FILE but missing: one line, exit 1', async () => {
    const run = runScript('src/server.ts', { ENV_FILE: '/nonexistent/.env', DATA_DIR: tempDir() });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).msg).toMatch(/ENV_FILE names \/nonexistent\/.env, which does not exist/);
  });
});

describe('npm start', () => {
  it('restarts itself once (same pid): ACF on Node 22, two malloc arenas, V8 heap sizes', async () => {
    const FLAG = '--experimental-async-context-frame';
    const SEMI = '--max-semi-space-size';
    const args = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const env = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const on = await startService({ DATA_DIR: tempDir() });
    const off = await startService({
      DATA_DIR: tempDir(),
      ASYNC_CONTEXT_FRAME: 'off',
      MALLOC_ARENA_MAX: '4',
      NODE_OPTIONS: `${SEMI}=8`,
    });
    try {
      // Node 24 has it by default (and refuses the flag).
      expect(args(on.child.pid!).includes(FLAG)).toBe(process.versions.node.startsWith('22.'));
      expect(args(on.child.pid!).some((a) => a.endsWith('src/server.ts'))).toBe(true);
      expect(env(on.child.pid!)).toContain('MALLOC_ARENA_MAX=2');
      expect(args(on.child.pid!)).toContain(`${SEMI}=64`);
      expect(args(on.child.pid!)).toContain('--heap-growing-percent=150');
      expect(args(off.child.pid!)).not.toContain(FLAG);
      expect(env(off.child.pid!)).toContain('MALLOC_ARENA_MAX=4');
      // Given in NODE_OPTIONS: kept, and not overridden on the command line.
      expect(args(off.child.pid!).some((a) => a.startsWith(SEMI))).toBe(false);
      expect(args(off.child.pid!)).toContain('--heap-growing-percent=150');
      expect(env(off.child.pid!)).toContain(`NODE_OPTIONS=${SEMI}=8`);
    } finally {
      expect(await on.stop()).toBe(0);
      expect(await off.stop()).toBe(0);
    }
  });

  it(
    `migrates, seeds an empty ${suiteProvider} database, answers /healthz and /readyz, and drains on ` + `SIGTERM`,
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
      // While draining it still answers, but tells load balancers to go away.
      await new Promise((r) => setTimeout(r, 200));
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('connection')).toBe('close');
      expect(await ready.json()).toMatchObject({ status: 'draining' });
      const answers = await Promise.all(logins);
      expect(answers.map((a) => a.status)).toEqual(Array(16).fill(200));
      expect(answers.every((a) => a.body.token)).toBe(true);
      expect(answers.some((a) => a.at > signalledAt)).toBe(true); // some were still in flight at the signal
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

  const badConfigs: Array<[string, Record<string, string>, RegExp]> = [
    ['a bad PORT', { PORT: 'eighty' }, /PORT must be an integer from 0 to 65535/],
    [
      'an unwritable data dir',
      { DATA_DIR: '/etc/hostname/data' },
      /data directory \/etc\/hostname\/data is not writable/,
    ],
    [
      'an unreachable DATABASE_URL',
      { DATABASE_URL: 'postgresql://prode:secret@127.0.0.1:1/prode' },
      /postgresql:\/\/prode:\*\*\*@127\.0\.0\.1:1\/prode: cannot migrate the database: Can't reach database server/,
    ],
    [
      'an unknown DATABASE_URL scheme',
      { DATABASE_URL: 'mysql://localhost/prode' },
      /DATABASE_URL must start with postgresql:\/\//,
    ],
    ['a short JWT_SECRET', { JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32 characters/],
    [
      'an OTLP endpoint that is not a URL',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
    ],
    [
      'an OTLP protocol other than HTTP',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json, got "grpc"/,
    ],
    [
      'OTLP headers that are not key=value pairs',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key' },
      /OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs/,
    ],
  ];
  it.each(badConfigs)('%s: one clear line and exit 1', async (_name, env, message) => {
    const run = runScript('src/server.ts', { DATA_DIR: tempDir(), PORT: '0', JWT_SECRET: 's'.repeat(40), ...env });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    // One JSON log line, as every other line the server writes, at level fatal.
    const line = JSON.parse(lines[0]) as { level: number; msg: string };
    expect(line.level).toBe(60);
    expect(line.msg).toMatch(message);
    expect(lines[0]).not.toMatch(/secret@/);
  });
});
