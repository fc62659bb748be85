// N gateway processes (src/server.ts, run as `npm start` runs it) on one fresh, migrated, seeded database
// (PostgreSQL unless a test asks for one SQLite file every process opens), as replicas behind a load balancer are:
// for tests of what must hold across replicas. The database is prepared
// here (migrated, demo data loaded) before any replica starts, so none of them migrates or seeds; they share the
// JWT secret, so a token from one is good on all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemo, type DemoIds } from '../../prisma/seed/demo-seed.ts';
import { setPasswordHashCost } from '../../src/auth/passwords.ts';
import type { Database } from '../../src/db/client.ts';
import { freshDatabase } from './db.ts';
import { startService, type Service } from './process.ts';
import { TEST_JWT_SECRET } from './tokens.ts';

type Env = Record<string, string | undefined>;

export interface Replicas {
  urls: string[];
  services: Service[];
  databaseUrl: string;
  /** The test's own client on the shared database, to set rows up and check them. */
  db: Database;
  demo: DemoIds;
  /** Each replica's output (stdout and stderr) so far. */
  outputs(): string[];
  /** Stops every replica (SIGTERM, drained), then drops the database. */
  stop(): Promise<void>;
}

/** The hash cost the demo passwords are hashed at here and in the replicas (the lowest: logins stay fast). */
const HASH_COST = '14';

/**
 * Starts `n` replicas. Like startTestServer, the rate limits are lifted and the notifications tick is off unless
 * `env` sets them; `perReplica(i)` adds the i-th replica's own variables.
 */
export async function startReplicas(
  n: number,
  env: Env = {},
  perReplica: (i: number) => Env = () => ({}),
  provider: 'postgresql' | 'sqlite' = 'postgresql',
): Promise<Replicas> {
  const t = await freshDatabase(provider);
  const databaseUrl = t.target.provider === 'postgresql' ? t.target.url : `file:${t.target.file}`;
  setPasswordHashCost(Number(HASH_COST));
  const { ids: demo } = await seedDemo(t.db.prisma);
  const dirs: string[] = [];
  const services: Service[] = [];
  const stop = async () => {
    await Promise.all(services.map((s) => s.stop('SIGTERM')));
    await t.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const started = await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const dataDir = mkdtempSync(join(tmpdir(), `prode-replica${i}-`));
        dirs.push(dataDir);
        return startService({
          DATABASE_URL: databaseUrl,
          DATA_DIR: dataDir,
          JWT_SECRET: TEST_JWT_SECRET,
          SEED_ON_EMPTY: 'false',
          PASSWORD_HASH_COST: HASH_COST,
          RATE_LIMIT_MAX: '0',
          LOGIN_RATE_LIMIT_MAX: '1000000',
          NOTIFICATIONS_INTERVAL_SECONDS: '0',
          SHUTDOWN_DELAY_MS: '0',
          ...env,
          ...perReplica(i),
        }).then((s) => {
          services.push(s);
          return s;
        });
      }),
    );
    return {
      urls: started.map((s) => s.url),
      services: started,
      databaseUrl,
      db: t.db,
      demo,
      outputs: () => started.map((s) => s.output()),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
