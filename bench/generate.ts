// `npm run bench:generate -- --scale 1`: a large deterministic dataset for the benchmarks, in the database
// named by DATABASE_URL (else bench/data/bench-<scale>.db, recreated). At scale 1: one company, 5,000 users
// in a 100-leaf area tree, 3 tournaments with 500 matches, ~1,000,000 predictions (scored where finished),
// 5,000 posts with comments and likes. Rows go in through the driver in large batches (Prisma's per-row
// overhead would make a million rows take minutes); the schema comes from the migrations as usual.
import { prng } from '../src/domain/prng.ts';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { hashPassword } from '../src/auth/passwords.ts';
import type { DatabaseTarget } from '../src/db/adapters.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/bootstrap/migrate.ts';
import { rebuildStandings } from '../src/game/standings.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../src/domain/defaults.ts';
import { scorePrediction } from '../src/domain/scoring.ts';
import { batched, iso, openWriter, type Value } from './writers.ts';

export const BENCH_PASSWORD = 'Bench-password-2026!';

export async function generate(target: DatabaseTarget, scale: number, seed = 2026) {
  // `npm run bench` generates into bench/data/, which a fresh clone does not have: SQLite makes no directories.
  if (target.provider === 'sqlite') mkdirSync(dirname(target.file), { recursive: true });
  await migrateDatabase(target);
  const writer = await openWriter(target);
  const random = prng(seed);
  const now = Date.now();
  const users = Math.max(50, Math.round(5000 * scale));
  const matchCount = Math.max(20, Math.round(500 * scale));
  const posts = Math.max(20, Math.round(5000 * scale));
  const hash = await hashPassword(BENCH_PASSWORD);
  const json = (v: unknown) => JSON.stringify(v);

  const c = DEFAULT_COMPANY_JSON;
  await writer.insert(
    'Company',
    [
      'id',
      'name',
      'code',
      'appPath',
      'combinedRoundsRankingDefinitions',
      'customColors',
      'featureSettings',
      'googleServicesConfig',
      'notificationSettings',
      'purchasedGames',
      'supportedLanguages',
      'theme',
      'maxUsersAmount',
      'createdAt',
      'updatedAt',
    ],
    [
      [
        1,
        'Bench Corp',
        'BENCH',
        'bench',
        json(c.combinedRoundsRankingDefinitions),
        json(c.customColors),
        json(c.featureSettings),
        json(c.googleServicesConfig),
        json(c.notificationSettings),
        json(c.purchasedGames),
        json(c.supportedLanguages),
        json(c.theme),
        users * 2,
        iso(new Date(now)),
        iso(new Date(now)),
      ],
    ],
  );

  // Area tree: 5 countries x 4 cities x 5 departments.
  const areas: Value[][] = [];
  const leaves: Array<[number, number, number]> = [];
  let areaId = 0;
  for (let a = 0; a < 5; a++) {
    const l1 = ++areaId;
    areas.push([l1, 1, `Region ${a + 1}`, 1, null]);
    for (let b = 0; b < 4; b++) {
      const l2 = ++areaId;
      areas.push([l2, 1, `City ${a + 1}.${b + 1}`, 2, l1]);
      for (let d = 0; d < 5; d++) {
        const l3 = ++areaId;
        areas.push([l3, 1, `Dept ${a + 1}.${b + 1}.${d + 1}`, 3, l2]);
        leaves.push([l1, l2, l3]);
      }
    }
  }
  await writer.insert('Area', ['id', 'companyId', 'name', 'level', 'parentAreaId'], areas);

  const u = DEFAULT_USER_JSON;
  await batched(
    writer,
    'users',
    'User',
    [
      'id',
      'companyId',
      'name',
      'email',
      'emailVerified',
      'externalId',
      'loginProviderId',
      'passwordHash',
      'role',
      'areaLevel1Id',
      'areaLevel2Id',
      'areaLevel3Id',
      'extraFields',
      'notificationSettings',
      'createdAt',
      'updatedAt',
    ],
    users,
    (i) => {
      const [l1, l2, l3] = leaves[i % leaves.length];
      const email = i === 0 ? 'admin@bench.test' : `user${i}@bench.test`;
      return [
        i + 1,
        1,
        i === 0 ? 'Bench Admin' : `Bench User ${String(i).padStart(5, '0')}`,
        email,
        true,
        `B${i}`,
        email,
        hash,
        i === 0 ? 'admin' : 'player',
        l1,
        l2,
        l3,
        json(u.extraFields),
        json(u.notificationSettings),
        iso(new Date(now)),
        iso(new Date(now)),
      ];
    },
  );

  await writer.insert(
    'Country',
    ['id', 'name'],
    [[1, 'World'], ...Array.from({ length: 48 }, (_, i) => [i + 2, `Nation ${i + 1}`])],
  );
  await writer.insert(
    'Team',
    ['id', 'name', 'countryId', 'externalId'],
    Array.from({ length: 48 }, (_, i) => [i + 1, `Nation ${i + 1}`, i + 2, `bench:team:${i + 1}`]),
  );
  // Three tournaments sharing the matches 60/30/10; rounds of 10 matches; the first 60% of rounds are played.
  const shares = [0.6, 0.3, 0.1];
  const tournaments: Value[][] = [];
  const rounds: Value[][] = [];
  const matches: Array<{
    id: number;
    roundId: number;
    tournamentId: number;
    date: Date;
    home: number;
    away: number;
    finished: boolean;
    hg: number | null;
    ag: number | null;
    pw: 'home' | 'away' | null;
    knockout: boolean;
  }> = [];
  let roundId = 0;
  let matchId = 0;
  for (const [t, share] of shares.entries()) {
    tournaments.push([
      t + 1,
      `Bench Cup ${t + 1}`,
      1,
      true,
      false,
      false,
      false,
      iso(new Date(now)),
      iso(new Date(now)),
    ]);
    const n = Math.max(10, Math.round(matchCount * share));
    const roundCount = Math.ceil(n / 10);
    for (let r = 0; r < roundCount; r++) {
      const id = ++roundId;
      const played = r < roundCount * 0.6;
      const roundDate = new Date(now + (played ? -(roundCount - r) : r + 1) * 7 * 86400e3);
      const knockout = r >= roundCount - 2;
      rounds.push([id, t + 1, `Round ${r + 1}`, iso(roundDate), knockout, r + 1]);
      for (let k = 0; k < 10 && matches.length < matchId + 1 + n; k++) {
        if (k + r * 10 >= n) break;
        const home = Math.floor(random() * 48) + 1;
        const away = ((home + Math.floor(random() * 46)) % 48) + 1;
        const hg = played ? Math.floor(random() * 4) : null;
        const ag = played ? (knockout && random() < 0.2 ? hg : Math.floor(random() * 3)) : null;
        matches.push({
          id: ++matchId,
          roundId: id,
          tournamentId: t + 1,
          date: new Date(roundDate.getTime() + k * 3600e3),
          home,
          away,
          finished: played,
          hg,
          ag,
          pw: played && knockout && hg === ag ? (random() < 0.5 ? 'home' : 'away') : null,
          knockout,
        });
      }
    }
  }
  await writer.insert(
    'Tournament',
    [
      'id',
      'name',
      'countryId',
      'isActive',
      'hasTwoWayMatches',
      'importNewMatchesWithPenalties',
      'showNoMoreRoundsWarning',
      'createdAt',
      'updatedAt',
    ],
    tournaments,
  );
  await writer.insert(
    'CompanyTournament',
    ['companyId', 'tournamentId', 'joinedAt'],
    tournaments.map((t) => [1, t[0], iso(new Date(now))]),
  );
  await writer.insert('Round', ['id', 'tournamentId', 'name', 'date', 'hasPenalties', 'position'], rounds);
  await writer.insert(
    'Match',
    [
      'id',
      'roundId',
      'tournamentId',
      'date',
      'homeTeamId',
      'awayTeamId',
      'homeTeamGoals',
      'awayTeamGoals',
      'penaltiesWinner',
      'status',
      'hasPenalties',
      'alreadySentOpenNotification',
      'createdAt',
      'updatedAt',
    ],
    matches.map((m) => [
      m.id,
      m.roundId,
      m.tournamentId,
      iso(m.date),
      m.home,
      m.away,
      m.hg,
      m.ag,
      m.pw,
      m.finished ? 'FINISHED' : 'SCHEDULED',
      m.knockout,
      false,
      iso(new Date(now)),
      iso(new Date(now)),
    ]),
  );

  // Predictions: each user predicts 40% of the matches; finished ones are scored with the default rules.
  const coverage = 0.4;
  const predictionRows: number[] = [];
  const total = Math.round(users * matches.length * coverage);
  let predictionId = 0;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let stride = 7;
  while (gcd(stride, matches.length) !== 1) stride++; // distinct matches per user
  await batched(
    writer,
    'predictions',
    'Prediction',
    [
      'id',
      'userId',
      'matchId',
      'homeTeamGoals',
      'awayTeamGoals',
      'penaltiesWinner',
      'status',
      'points',
      'exactHit',
      'outcomeHit',
      'createdAt',
      'updatedAt',
    ],
    total,
    (i) => {
      // Deterministic spread: user-major order, a stride over the matches.
      const userId = Math.floor(i / Math.round(matches.length * coverage)) + 1;
      const m = matches[(i * stride + userId * 13) % matches.length];
      predictionRows.push(m.id);
      const hg = Math.floor(random() * 4);
      const ag = Math.floor(random() * 3);
      const pw = m.knockout && hg === ag ? (random() < 0.5 ? 'home' : 'away') : null;
      const score = scorePrediction(
        { homeTeamGoals: hg, awayTeamGoals: ag, penaltiesWinner: pw },
        {
          status: m.finished ? 'FINISHED' : 'SCHEDULED',
          homeTeamGoals: m.hg,
          awayTeamGoals: m.ag,
          penaltiesWinner: m.pw,
        },
      );
      return [
        ++predictionId,
        userId,
        m.id,
        hg,
        ag,
        pw,
        score.status,
        score.points,
        score.exactHit,
        score.outcomeHit,
        iso(new Date(now)),
        iso(new Date(now)),
      ];
    },
  );

  await batched(
    writer,
    'posts',
    'Post',
    ['id', 'companyId', 'userId', 'text', 'createdAt', 'updatedAt'],
    posts,
    (i) => [
      i + 1,
      1,
      (i % users) + 1,
      `Bench post ${i + 1}: who wins this weekend?`,
      iso(new Date(now - (posts - i) * 60e3)),
      iso(new Date(now - (posts - i) * 60e3)),
    ],
  );
  let commentId = 0;
  const comments: Value[][] = [];
  const likes: Value[][] = [];
  const commentLikes: Value[][] = [];
  for (let p = 1; p <= posts; p++) {
    const n = Math.floor(random() * 7);
    for (let k = 0; k < n; k++) {
      const id = ++commentId;
      comments.push([
        id,
        p,
        ((p * 31 + k * 17) % users) + 1,
        `Comment ${k + 1}`,
        iso(new Date(now)),
        iso(new Date(now)),
      ]);
      if (k % 2 === 0) commentLikes.push([commentLikes.length + 1, id, ((p + k) % users) + 1, iso(new Date(now))]);
    }
    const likeCount = Math.floor(random() * 11);
    for (let k = 0; k < likeCount; k++)
      likes.push([likes.length + 1, p, ((p * 7 + k * 101) % users) + 1, iso(new Date(now))]);
  }
  await batched(
    writer,
    'comments',
    'PostComment',
    ['id', 'postId', 'userId', 'text', 'createdAt', 'updatedAt'],
    comments.length,
    (i) => comments[i],
  );
  await batched(writer, 'likes', 'PostLike', ['id', 'postId', 'userId', 'createdAt'], likes.length, (i) => likes[i]);
  await batched(
    writer,
    'comment likes',
    'PostCommentLike',
    ['id', 'commentId', 'userId', 'createdAt'],
    commentLikes.length,
    (i) => commentLikes[i],
  );
  await writer.close();
  // Predictions went in around the rescoring, so build the standings the general ranking reads.
  const db = await openDatabase(target, { poolMax: 2 });
  await rebuildStandings(
    db.prisma,
    tournaments.map((t) => t[0] as number),
  );
  await db.close();
  return { users, matches: matches.length, predictions: total, posts, comments: comments.length, likes: likes.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { scale: { type: 'string', default: '0.1' } } });
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 10)) {
    console.error('bench:generate: --scale must be a number in (0, 10]');
    process.exit(2);
  }
  let target: DatabaseTarget;
  if (process.env.DATABASE_URL) target = { provider: 'postgresql', url: process.env.DATABASE_URL };
  else {
    const file = `${process.cwd()}/bench/data/bench-${scale}.db`;
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    target = { provider: 'sqlite', file };
  }
  const t0 = Date.now();
  const counts = await generate(target, scale);
  console.log(
    `bench:generate: scale ${scale} on ${target.provider}: ${JSON.stringify(counts)} in ` +
      `${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  process.exit(0);
}
