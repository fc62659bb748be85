// Deterministic demo data (documented in README "Demo data"). Same input, same rows: no clock, no randomness
// except a seeded generator; the one password hash is the only value that differs between runs.
import { prng } from '../../src/domain/prng.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hashPassword } from '../../src/auth/passwords.ts';
import type { Db } from '../../src/db/client.ts';
import { insertArea } from '../../src/app/areas.ts';
import { rescoreMatches } from '../../src/game/rescore.ts';
import { importTournament } from '../../src/import/import-tournament.ts';
import { parseOpenfootball } from '../../src/import/openfootball.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';

export const DEMO_PASSWORD = 'Prode-demo-2026!';
export const DEMO_TOURNAMENT_EXTERNAL_ID = 'demo:prode-demo-cup';
const FIXTURE = fileURLToPath(new URL('../fixtures/demo-cup.json', import.meta.url));
/** Timestamps of seeded posts and comments count from here. */
const T0 = Date.UTC(2026, 5, 20, 12, 0, 0);

export type DemoCompanyCode = 'PARTNERS' | 'DEMO' | 'GLOBEX';
export type DemoUserEmail =
  | 'reseller@partners.test'
  | 'manager@partners.test'
  | 'admin@demo.test'
  | `player${number}@demo.test`
  | 'admin@globex.test'
  | `player${number}@globex.test`;
export type DemoInvitationEmail = 'new.hire1@demo.test' | 'new.hire2@demo.test' | 'new.hire@globex.test';

/** The ids of the demo rows, so that tests and tools name them instead of looking them up. */
export interface DemoIds {
  companies: Record<DemoCompanyCode, number>;
  users: Record<DemoUserEmail, number>;
  invitations: Record<DemoInvitationEmail, number>;
  /** Areas by name (the names are unique): Demo Corp's tree, Globex's Headquarters. */
  areas: Record<string, number>;
  /** The Prode Demo Cup. */
  tournament: number;
  /** The cup's rounds by name: 'Matchday 1', 'Matchday 2', 'Semi-finals', 'Match for third place', 'Final'. */
  rounds: Record<string, number>;
  /** The cup's teams by name. */
  teams: Record<string, number>;
  matches: {
    /** The first match: group stage, finished. */
    opener: number;
    /** The semi-final decided on penalties. */
    shootout: number;
    /** The final: years ahead, not played. */
    final: number;
  };
  /** Demo Corp's dream-finals setting. */
  dreamFinals: number;
  /** Posts in the order written: Demo Corp's five (the first by player1, the second with an image), Globex's one. */
  posts: { demo: number[]; globex: number };
}

export interface DemoSeed {
  ids: DemoIds;
  /** What was written, for a log line: "3 companies, 34 users, ...". */
  summary: string;
}

export async function seedDemo(prisma: Db): Promise<DemoSeed> {
  // The tournament import is itself one idempotent transaction; everything else is one more.
  const parsed = parseOpenfootball(JSON.parse(readFileSync(FIXTURE, 'utf8')));
  await importTournament(prisma, parsed, { externalId: DEMO_TOURNAMENT_EXTERNAL_ID, countryName: 'World' });
  const { id: tournamentId } = await prisma.tournament.findUniqueOrThrow({
    where: { externalId: DEMO_TOURNAMENT_EXTERNAL_ID },
  });
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const { counts, ids } = await prisma.$transaction(
    (tx) => seedTenants(tx as unknown as Db, tournamentId, passwordHash),
    { timeout: 120_000 },
  );
  return {
    ids,
    summary: Object.entries(counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', '),
  };
}

async function seedTenants(tx: Db, tournamentId: number, passwordHash: string) {
  const company = (data: {
    name: string;
    code: string;
    appPath?: string;
    appCustomDomain?: string;
    isReseller?: boolean;
    resellerCompanyId?: number;
    maxUsersAmount?: number;
  }) => tx.company.create({ data: { ...DEFAULT_COMPANY_JSON, ...data } });
  const partners = await company({
    name: 'Channel Partners',
    code: 'PARTNERS',
    appPath: 'partners',
    isReseller: true,
    maxUsersAmount: 10,
  });
  const demo = await company({
    name: 'Demo Corp',
    code: 'DEMO',
    appPath: 'demo',
    resellerCompanyId: partners.id,
    maxUsersAmount: 50,
  });
  const globex = await company({
    name: 'Globex',
    code: 'GLOBEX',
    appCustomDomain: 'prode.globex.test',
    resellerCompanyId: partners.id,
    maxUsersAmount: 25,
  });

  await tx.companyExtraField.createMany({
    data: [
      {
        id: 'demo-employee-number',
        companyId: demo.id,
        name: 'employeeNumber',
        kind: 'profile',
        order: 1,
        isRequired: true,
        type: 'string',
      },
      {
        id: 'demo-favourite-team',
        companyId: demo.id,
        name: 'favouriteTeam',
        kind: 'profile',
        order: 2,
        isRequired: false,
        type: 'select',
        settings: { options: ['Argentina', 'Brazil', 'France', 'Spain'] },
      },
    ],
  });

  // Demo Corp's area tree: country > city > department.
  const tree = {
    Argentina: { 'Buenos Aires': ['Sales', 'Engineering'], Córdoba: ['Operations'] },
    Brasil: { 'São Paulo': ['Marketing', 'Finance'] },
  };
  const leaves: Array<[number, number, number]> = [];
  const areas: Record<string, number> = {};
  for (const [l1Name, cities] of Object.entries(tree)) {
    const l1 = await insertArea(tx, { companyId: demo.id, name: l1Name, level: 1 });
    areas[l1Name] = l1.id;
    for (const [l2Name, departments] of Object.entries(cities)) {
      const l2 = await insertArea(tx, { companyId: demo.id, name: l2Name, level: 2, parentAreaId: l1.id });
      areas[l2Name] = l2.id;
      for (const l3Name of departments) {
        const l3 = await insertArea(tx, { companyId: demo.id, name: l3Name, level: 3, parentAreaId: l2.id });
        areas[l3Name] = l3.id;
        leaves.push([l1.id, l2.id, l3.id]);
      }
    }
  }
  const globexHq = await insertArea(tx, { companyId: globex.id, name: 'Headquarters', level: 1 });
  areas.Headquarters = globexHq.id;

  const users = {} as DemoIds['users'];
  const user = async (
    companyId: number,
    email: DemoUserEmail,
    name: string,
    role: 'player' | 'admin' | 'reseller' | 'manager',
    areaIds: number[] = [],
    extra: object = {},
  ) => {
    const created = await tx.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId,
        email,
        name,
        role,
        passwordHash,
        emailVerified: true,
        externalId: email.split('@')[0],
        loginProviderId: email,
        areaLevel1Id: areaIds[0] ?? null,
        areaLevel2Id: areaIds[1] ?? null,
        areaLevel3Id: areaIds[2] ?? null,
        showInitialTour: false,
        ...extra,
      },
    });
    users[email] = created.id;
    return created;
  };
  await user(partners.id, 'reseller@partners.test', 'Rita Reseller', 'reseller');
  await user(partners.id, 'manager@partners.test', 'Manu Manager', 'manager');
  const demoAdmin = await user(demo.id, 'admin@demo.test', 'Dana Admin', 'admin', leaves[0]);
  const demoPlayers = [];
  for (let i = 1; i <= 20; i++) {
    demoPlayers.push(
      await user(demo.id, `player${i}@demo.test`, `Demo Player ${i}`, 'player', leaves[i % leaves.length], {
        extraFields: [{ name: 'employeeNumber', value: `E${String(i).padStart(4, '0')}` }],
      }),
    );
  }
  await user(globex.id, 'admin@globex.test', 'Gus Admin', 'admin', [globexHq.id]);
  const globexPlayers = [];
  for (let i = 1; i <= 10; i++)
    globexPlayers.push(await user(globex.id, `player${i}@globex.test`, `Globex Player ${i}`, 'player', [globexHq.id]));

  await tx.invitation.createMany({
    data: [
      {
        companyId: demo.id,
        email: 'new.hire1@demo.test',
        name: 'New Hire One',
        externalId: 'NH1',
        role: 'player',
        areaLevel1Id: leaves[0][0],
        areaLevel2Id: leaves[0][1],
        areaLevel3Id: leaves[0][2],
        createdById: demoAdmin.id,
      },
      {
        companyId: demo.id,
        email: 'new.hire2@demo.test',
        name: 'New Hire Two',
        externalId: 'NH2',
        role: 'admin',
        areaLevel1Id: leaves[3][0],
        createdById: demoAdmin.id,
      },
      {
        companyId: globex.id,
        email: 'new.hire@globex.test',
        name: 'Globex Hire',
        externalId: 'GH1',
        role: 'player',
        areaLevel1Id: globexHq.id,
      },
    ],
  });
  const invitationRows = await tx.invitation.findMany({
    where: { companyId: { in: [demo.id, globex.id] } },
    select: { id: true, email: true },
  });
  const invitations = Object.fromEntries(invitationRows.map((i) => [i.email, i.id])) as DemoIds['invitations'];

  await tx.news.createMany({
    data: [
      {
        companyId: demo.id,
        title: 'The Demo Cup is on',
        body: 'Predict every match before kickoff.',
        publishedAt: new Date(T0 - 20 * 86400e3),
      },
      {
        companyId: demo.id,
        title: 'Semi-final results are in',
        body: 'Rankings updated.',
        publishedAt: new Date(T0 + 12 * 86400e3),
      },
      {
        companyId: globex.id,
        title: 'Welcome to Globex Prode',
        body: 'Good luck!',
        publishedAt: new Date(T0 - 20 * 86400e3),
      },
    ],
  });

  await tx.companyTournament.createMany({
    data: [
      { companyId: demo.id, tournamentId },
      { companyId: globex.id, tournamentId },
    ],
  });
  const matches = await tx.match.findMany({ where: { tournamentId }, orderBy: { id: 'asc' } });
  const random = prng(2026);
  const goals = () => Math.floor(random() * random() * 4);
  const predictions = [];
  for (const player of [demoAdmin, ...demoPlayers, ...globexPlayers]) {
    for (const match of matches) {
      if (random() < 0.1) continue; // some players forget some matches
      const p = { homeTeamGoals: goals(), awayTeamGoals: goals(), penaltiesWinner: null as 'home' | 'away' | null };
      if (match.hasPenalties && p.homeTeamGoals === p.awayTeamGoals)
        p.penaltiesWinner = random() < 0.5 ? 'home' : 'away';
      predictions.push({ userId: player.id, matchId: match.id, ...p });
    }
  }
  await tx.prediction.createMany({ data: predictions });
  // Scored the way every result is: by the game's rescoring.
  await rescoreMatches(
    tx,
    matches.filter((m) => m.status === 'FINISHED').map((m) => m.id),
  );

  const rounds = await tx.round.findMany({ where: { tournamentId }, orderBy: { position: 'asc' } });
  const finalRound = rounds.find((r) => r.name === 'Final') ?? rounds[rounds.length - 1];
  const teamIds = new Set(matches.flatMap((m) => [m.homeTeamId, m.awayTeamId]));
  const teams = await tx.team.findMany({ where: { id: { in: [...teamIds] } } });
  const dream = await tx.dreamFinalsSetting.create({
    data: {
      companyId: demo.id,
      tournamentId,
      awardedPositions: 2,
      awardedPoints: 5,
      limitRoundId: finalRound.id,
      isEnabled: true,
      externalId: 'demo-dream-finals',
    },
  });
  const finalists = await tx.team.findMany({
    where: { name: { in: ['Argentina', 'France', 'Spain', 'Brazil'] } },
    orderBy: { name: 'asc' },
  });
  await tx.dreamFinalPick.createMany({
    data: demoPlayers.slice(0, 8).flatMap((player, i) => [
      { settingId: dream.id, userId: player.id, position: 1, teamId: finalists[i % finalists.length].id },
      { settingId: dream.id, userId: player.id, position: 2, teamId: finalists[(i + 1) % finalists.length].id },
    ]),
  });

  const texts = [
    'Who else has Argentina as champion?',
    'That semi-final on penalties!',
    'Office pool standings are up.',
    'Spain deserved more.',
    'Lunch bet: final goes to extra time.',
  ];
  const demoPosts: number[] = [];
  let commentCount = 0;
  for (const [i, text] of texts.entries()) {
    const author = i === 2 ? demoAdmin : demoPlayers[i];
    const at = new Date(T0 + i * 3600e3);
    const post = await tx.post.create({
      data: {
        companyId: demo.id,
        userId: author.id,
        text,
        imageUrl: i === 1 ? 'https://picsum.photos/seed/prode/640/360' : null,
        createdAt: at,
        updatedAt: at,
      },
    });
    demoPosts.push(post.id);
    for (let c = 0; c < 3; c++) {
      const commenter = demoPlayers[(i + c + 5) % demoPlayers.length];
      const cat = new Date(at.getTime() + (c + 1) * 600e3);
      const comment = await tx.postComment.create({
        data: {
          postId: post.id,
          userId: commenter.id,
          text: `Comment ${c + 1} on "${text.slice(0, 20)}"`,
          createdAt: cat,
          updatedAt: cat,
        },
      });
      commentCount++;
      if (c === 0)
        await tx.postCommentLike.createMany({
          data: [demoPlayers[0], demoPlayers[1]].map((u) => ({ commentId: comment.id, userId: u.id, createdAt: cat })),
        });
    }
    await tx.postLike.createMany({
      data: demoPlayers.slice(0, i + 2).map((u) => ({ postId: post.id, userId: u.id, createdAt: at })),
    });
  }
  const gAt = new Date(T0);
  const gPost = await tx.post.create({
    data: {
      companyId: globex.id,
      userId: globexPlayers[0].id,
      text: 'Globex predictions are in!',
      createdAt: gAt,
      updatedAt: gAt,
    },
  });
  await tx.postComment.create({
    data: { postId: gPost.id, userId: globexPlayers[1].id, text: 'Mine too.', createdAt: gAt, updatedAt: gAt },
  });
  await tx.postLike.create({ data: { postId: gPost.id, userId: globexPlayers[2].id, createdAt: gAt } });
  commentCount++;

  const counts = {
    companies: 3,
    users: Object.keys(users).length,
    predictions: predictions.length,
    posts: demoPosts.length + 1,
    comments: commentCount,
  };
  const ids: DemoIds = {
    companies: { PARTNERS: partners.id, DEMO: demo.id, GLOBEX: globex.id },
    users,
    invitations,
    areas,
    tournament: tournamentId,
    rounds: Object.fromEntries(rounds.map((r) => [r.name, r.id])),
    teams: Object.fromEntries(teams.map((t) => [t.name, t.id])),
    matches: {
      opener: matches.find((m) => m.status === 'FINISHED' && m.group !== null)!.id,
      shootout: matches.find((m) => m.penaltiesWinner !== null)!.id,
      final: matches.find((m) => m.roundId === finalRound.id)!.id,
    },
    dreamFinals: dream.id,
    posts: { demo: demoPosts, globex: gPost.id },
  };
  return { counts, ids };
}
