// A .env file under the environment: the server and the scripts read it, the environment wins, a missing one stops
// the start with one line. (startup-config-errors.test.ts: settings the server cannot run with;
// startup-lifecycle.test.ts: a start and its shutdown; startup-runtime.test.ts: the runtime's own settings.)
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
