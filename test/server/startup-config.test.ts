// A start's settings: a .env file under the environment (the server and the scripts read it), and a setting the
// server cannot run with, which stops the start with one clear line and exit 1. (startup-lifecycle.test.ts: a start,
// its first migration and seed, and its shutdown; startup-runtime.test.ts: the runtime's own settings.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runScript, startService } from '../helpers/process.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-start-');

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

describe('a setting the server cannot run with', () => {
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
