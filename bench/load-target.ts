// Starts the real server (one process) on a fresh demo-seeded database and gathers what the mixed load needs.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseTarget } from '../src/db/adapters.ts';
import { openDatabase } from '../src/db/client.ts';
import { DEMO_PASSWORD } from '../prisma/seed/demo-seed.ts';
import { freePort } from '../test/helpers/process.ts';
import type { LoadTarget } from './mixed-load.ts';

export interface StartedTarget extends LoadTarget {
  child: ChildProcess;
  /** The database the server uses, to open beside it. */
  database: DatabaseTarget;
  output: () => string;
  stop(): Promise<number | null>;
}

/** `databaseUrl` empty: a fresh SQLite file in a temp dir. The server seeds the demo data on its first start. */
export async function startLoadTarget(
  databaseUrl?: string,
  extraEnv: Record<string, string> = {},
): Promise<StartedTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'prode-load-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    JWT_SECRET: 'l'.repeat(48),
    LOG_LEVEL: 'warn',
    SEED_ON_EMPTY: 'true',
    NOTIFICATIONS_INTERVAL_SECONDS: '0',
    SHUTDOWN_DELAY_MS: '0',
    // One address plays every player here: the per-address limit is for the real world.
    RATE_LIMIT_MAX: '0',
    LOGIN_RATE_LIMIT_MAX: '1000',
    ...extraEnv,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 600) throw new Error(`server did not start:\n${out}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = async (email: string) => {
    const r = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-path': 'demo' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    if (!r.ok) throw new Error(`login ${email}: ${r.status} ${await r.text()}`);
    return ((await r.json()) as { token: string }).token;
  };
  // One after another, as people log in: twenty at once from one address would overrun its share of the password
  // queue (PASSWORD_HASH_QUEUE_PER_ADDRESS) and be refused.
  const playerTokens: string[] = [];
  for (let i = 1; i <= 20; i++) playerTokens.push(await login(`player${i}@demo.test`));
  const adminToken = await login('admin@demo.test');

  // Ids straight from the database the server uses.
  const database: DatabaseTarget = databaseUrl
    ? { provider: 'postgresql', url: databaseUrl }
    : { provider: 'sqlite', file: join(dir, 'prode.db') };
  const db = await openDatabase(database, { poolMax: 1 });
  try {
    const company = await db.prisma.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const tournamentIds = (
      await db.prisma.companyTournament.findMany({ where: { companyId: company.id }, select: { tournamentId: true } })
    ).map((c) => c.tournamentId);
    const future = await db.prisma.match.findMany({
      where: { date: { gt: new Date(Date.now() + 86_400_000) }, tournamentId: { in: tournamentIds } },
      select: { id: true, tournamentId: true },
      take: 10,
    });
    const post = await db.prisma.post.findFirstOrThrow({ where: { companyId: company.id, deletedAt: null } });
    const invitation = await db.prisma.invitation.findFirstOrThrow({ where: { companyId: company.id } });
    if (future.length === 0) throw new Error('the demo data has no future match to predict');
    return {
      url,
      pid: child.pid!,
      appPath: 'demo',
      playerTokens,
      adminToken,
      futureMatchIds: future.map((m) => m.id),
      tournamentId: future[0].tournamentId,
      postId: post.id,
      invitationId: invitation.id,
      child,
      database,
      output: () => out,
      async stop() {
        child.kill('SIGTERM');
        const code = await exited;
        rmSync(dir, { recursive: true, force: true });
        return code;
      },
    };
  } finally {
    await db.close();
  }
}
