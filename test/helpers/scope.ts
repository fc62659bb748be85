// The application layer without HTTP: a seeded database of the suite's provider and request scopes over it, built
// the way every request builds its own (src/http/request-scope.ts), so an operation's guards run as in production.
import { resolveRequestAuth, type TenantHeaders } from '../../src/auth/request-auth.ts';
import { signAccessToken } from '../../src/auth/tokens.ts';
import type { RequestScope } from '../../src/app/scope.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { scopeFor } from '../../src/http/request-scope.ts';
import type { LiveEvent } from '../../src/live/events.ts';
import { seededDatabase, type SeededDatabase } from './db.ts';
import { DEMO_USERS, type DemoUser } from './demo.ts';
import { TEST_JWT_SECRET } from './tokens.ts';

export interface AppTestDatabase extends SeededDatabase {
  config: Config;
  /** What the scopes' operations published to live subscribers, in order, once their writes committed. */
  published: LiveEvent[];
  /** How often operations woke the mail delivery and the rescoring runner. */
  wakes: { mail: number; rescoring: number };
}

/** A seeded database for one test file (drop it in afterAll), with the configuration a test server would use. */
export async function appTestDatabase(env: Record<string, string> = {}): Promise<AppTestDatabase> {
  const seeded = await seededDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp',
    PASSWORD_HASH_COST: '14',
    ...(process.env.ENGINE ? { ENGINE: process.env.ENGINE } : {}),
    ...(process.env.ENGINE_OFF ? { ENGINE_OFF: process.env.ENGINE_OFF } : {}),
    ...env,
  });
  config.database = seeded.target;
  return { ...seeded, config, published: [], wakes: { mail: 0, rescoring: 0 } };
}

/**
 * A request scope as the demo user (or anonymous, with null), acting on the company its tenant header names unless
 * `headers` says otherwise. `now` sets the request's clock (kickoff locks, deadlines).
 */
export async function testScope(
  database: AppTestDatabase,
  as: DemoUser | null,
  options: { now?: Date; headers?: TenantHeaders } = {},
): Promise<RequestScope> {
  const headers: TenantHeaders = { ...options.headers };
  if (as) {
    const { email, appPath } = DEMO_USERS[as];
    const user = await database.db.prisma.user.findUniqueOrThrow({ where: { id: database.demo.users[email] } });
    const token = await signAccessToken(
      { userId: user.id, companyId: user.companyId, role: user.role, tokenVersion: user.tokenVersion },
      database.config.jwtSecret,
      database.config.jwtTtlSeconds,
    );
    headers.authorization ??= `Bearer ${token}`;
    if (appPath && !options.headers) headers.appPath = appPath;
  }
  const auth = await resolveRequestAuth(database.db.prisma, headers, database.config.jwtSecret);
  const sources = {
    db: database.db,
    config: database.config,
    mail: { wake: () => void database.wakes.mail++ },
    rescoring: { wake: () => void database.wakes.rescoring++ },
    live: { publish: (event: LiveEvent) => void database.published.push(event) },
  };
  return scopeFor(sources, { auth, tableVersions: null, headers }, options.now).scope;
}

/**
 * A custom tournament of the company with one round and one match (Argentina against Japan) kicking off at `date`:
 * the match the game-side tests predict, score and watch.
 */
export async function customMatch(
  database: AppTestDatabase,
  companyId: number,
  date: Date,
  { name = `Cup ${Math.random()}`, hasPenalties = false }: { name?: string; hasPenalties?: boolean } = {},
) {
  const prisma = database.db.prisma;
  const world = await prisma.country.findFirstOrThrow({ where: { name: 'World' } });
  const tournament = await prisma.tournament.create({ data: { name, countryId: world.id, ownerCompanyId: companyId } });
  const round = await prisma.round.create({ data: { tournamentId: tournament.id, name: 'R1', date, position: 1 } });
  return prisma.match.create({
    data: {
      tournamentId: tournament.id,
      roundId: round.id,
      date,
      homeTeamId: database.demo.teams.Argentina,
      awayTeamId: database.demo.teams.Japan,
      hasPenalties,
    },
  });
}
