// The rows the matrix aims at: the demo data plus Globex records for every kind of write (a custom tournament with
// a future match, dream finals, a private league with a pending invitation, a notification), and Initech and Hooli,
// companies of another reseller (Umbrella) with users, a post, a comment, an invitation, an area and predictions.
// Every user and company also gets a recovery or skip-login token, so that the secrets check has values to find.
import { randomBytes } from 'node:crypto';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../../src/domain/defaults.ts';
import type { TestServer } from '../../helpers/app.ts';
import { forgeAccessToken, forgeInvitationLink } from '../../helpers/tokens.ts';

export interface Ids {
  demo: number;
  globex: number;
  partners: number;
  initech: number;
  demoPlayer1: number;
  demoPlayer2: number;
  demoAdmin: number;
  globexPlayer1: number;
  globexPlayer2: number;
  globexPlayer3: number;
  globexAdmin: number;
  demoPost: number;
  globexPost: number;
  globexComment: number;
  globexModeratedComment: number;
  initechPost: number;
  initechComment: number;
  demoInvitation: number;
  globexInvitation: number;
  globexRevokedInvitation: number;
  globexFreshInvitation: number;
  initechInvitation: number;
  globexArea: number;
  initechArea: number;
  demoCup: number;
  demoCupFinishedMatch: number;
  demoCupOpenMatch: number;
  finalists: [number, number];
  globexCup: number;
  globexCupRound: number;
  globexCupMatch: number;
  globexDream: number;
  /** Globex's bonus question about its own cup, answered by a Globex player. */
  globexBonusQuestion: number;
  demoLeague: number;
  globexLeague: number;
  globexLeagueInvitation: number;
  globexNotification: number;
  /** Trivia, which Demo Corp and Globex both play: an open question of each, Globex's answered by its player 1. */
  demoTrivia: number;
  globexTrivia: number;
  /** Globex's news item, extra-field definition and custom team, for the structure operations. */
  globexNews: number;
  globexExtraField: string;
  globexTeam: number;
  /** Seasons: Demo Corp's over the shared tournament, Globex's over its custom one. */
  demoSeason: number;
  globexSeason: number;
  jwt: {
    globexLink: string;
    globexRevokedLink: string;
    globexFreshLink: string;
    globexFresh2Link: string;
    initechLink: string;
    forgedGlobexLink: string;
    expiredGlobexLink: string;
    /** An access token whose subject is the id of Globex's invitation: must not work as an invitation link. */
    accessAsLink: string;
    /** An invitation token whose subject is Globex's admin id: must not work as a credential. */
    linkAsAccess: string;
    /** An access token for Globex's admin claiming Demo Corp: must not work. */
    crossClaims: string;
  };
}

const FOREIGN_SECRET = 'another-secret-that-is-long-enough-for-hs256-000';

export async function createFixture(srv: TestServer): Promise<Ids> {
  const p = srv.t.db.prisma;
  const { companies, users, posts, invitations, areas } = srv.demo;
  const [demo, partners] = [companies.DEMO, companies.PARTNERS];
  // Globex gets an app path too, so every header can name it.
  const globex = (await p.company.update({ where: { id: companies.GLOBEX }, data: { appPath: 'globex' } })).id;
  const [demoPlayer1, demoPlayer2] = [users['player1@demo.test'], users['player2@demo.test']];
  const [globexPlayer1, globexPlayer2, globexPlayer3] = [1, 2, 3].map((i) => users[`player${i}@globex.test`]);
  const globexAdmin = users['admin@globex.test'];
  const demoAdmin = await p.user.findUniqueOrThrow({ where: { id: users['admin@demo.test'] } });
  const demoCup = await p.tournament.findUniqueOrThrow({ where: { id: srv.demo.tournament } });
  const demoCupFinishedMatch = await p.match.findFirstOrThrow({
    where: { tournamentId: demoCup.id, status: 'FINISHED' },
    orderBy: { date: 'asc' },
  });
  const demoCupOpenMatch = await p.match.findFirstOrThrow({
    where: { tournamentId: demoCup.id, date: { gt: new Date() } },
    orderBy: { date: 'desc' },
  });
  const finalRound = await p.round.findUniqueOrThrow({ where: { id: demoCupOpenMatch.roundId } });

  // Globex: a custom tournament with its own teams and a future match Globex has predicted.
  const { countryId } = demoCup;
  const globexCup = await p.tournament.create({
    data: { name: 'Globex Office Cup', countryId, ownerCompanyId: globex },
  });
  const kickoff = new Date(Date.UTC(2031, 5, 1, 18));
  const globexCupRound = await p.round.create({
    data: { tournamentId: globexCup.id, name: 'Globex Office Round', date: kickoff, position: 1 },
  });
  const [reds, blues] = await Promise.all(
    ['Globex Reds', 'Globex Blues'].map((name) => p.team.create({ data: { name, countryId, companyId: globex } })),
  );
  const globexCupMatch = await p.match.create({
    data: {
      roundId: globexCupRound.id,
      tournamentId: globexCup.id,
      date: kickoff,
      homeTeamId: reds.id,
      awayTeamId: blues.id,
    },
  });
  await p.prediction.create({
    data: { userId: globexPlayer1, matchId: globexCupMatch.id, homeTeamGoals: 2, awayTeamGoals: 1 },
  });
  const globexBonusQuestion = await p.bonusQuestion.create({
    data: {
      companyId: globex,
      tournamentId: globexCup.id,
      kind: 'NUMBER',
      text: 'Goals in the Globex Office Cup?',
      options: [],
      points: 5,
      closesAt: kickoff,
      answers: { create: { userId: globexPlayer1, value: '3' } },
    },
  });
  const globexDream = await p.dreamFinalsSetting.create({
    data: {
      companyId: globex,
      tournamentId: demoCup.id,
      awardedPositions: 2,
      awardedPoints: 5,
      limitRoundId: finalRound.id,
      externalId: 'globex-dream',
    },
  });
  await p.dreamFinalPick.createMany({
    data: [demoCupOpenMatch.homeTeamId, demoCupOpenMatch.awayTeamId].map((teamId, i) => ({
      settingId: globexDream.id,
      userId: globexPlayer1,
      position: i + 1,
      teamId,
    })),
  });
  // Private leagues: Demo Corp's (owned by player1) and Globex's, with a pending invitation.
  const demoLeague = await p.internalRanking.create({
    data: {
      companyId: demo,
      tournamentId: demoCup.id,
      ownerId: demoPlayer1,
      name: 'Demo League',
      memberships: { create: { userId: demoPlayer1 } },
    },
  });
  const globexLeague = await p.internalRanking.create({
    data: {
      companyId: globex,
      tournamentId: demoCup.id,
      ownerId: globexPlayer1,
      name: 'Globex League',
      memberships: { create: [{ userId: globexPlayer1 }, { userId: globexPlayer2 }] },
    },
  });
  const globexLeagueInvitation = await p.internalRankingInvitation.create({
    data: { rankingId: globexLeague.id, invitedUserId: globexPlayer3, invitedById: globexPlayer1 },
  });
  const note = (companyId: number, userId: number, text: string, dedupeKey: string) =>
    p.notification.create({ data: { companyId, userId, type: 'rankingsUpdated', payload: { note: text }, dedupeKey } });
  const globexNotification = await note(globex, globexPlayer1, 'Globex private note', 'isolation:globex');
  // Both companies have their own sign-in provider: each is shown only to those who administer its company.
  for (const [companyId, name] of [
    [demo, 'demo'],
    [globex, 'globex'],
  ] as const) {
    await p.companySso.create({
      data: {
        companyId,
        issuer: `https://sso.${name}.test`,
        clientId: `${name}-client`,
        clientSecret: `${name}-sso-secret`,
        emailDomains: [`${name}.test`],
      },
    });
  }
  const globexNews = await p.news.create({
    data: {
      companyId: globex,
      title: 'Globex news',
      body: 'Globex only.',
      publishedAt: new Date(Date.UTC(2026, 0, 1)),
    },
  });
  const globexExtraField = await p.companyExtraField.create({
    data: { id: 'isolation-badge', companyId: globex, name: 'globexBadge', kind: 'profile', order: 1, type: 'string' },
  });
  await note(demo, demoPlayer1, 'Demo note', 'isolation:demo');
  // Trivia: purchased by both, an open question each; Globex's answered (and graded) by its player 1.
  await p.company.updateMany({
    where: { id: { in: [demo, globex] } },
    data: { purchasedGames: { ...DEFAULT_COMPANY_JSON.purchasedGames, trivia: true } },
  });
  const trivia = (companyId: number, text: string, options: string[]) =>
    p.triviaQuestion.create({
      data: {
        companyId,
        text,
        options,
        correctOption: 0,
        points: 3,
        startsAt: new Date(Date.now() - 3_600_000),
        endsAt: new Date(Date.UTC(2031, 0, 1)),
      },
    });
  const demoTrivia = await trivia(demo, 'Demo Corp trivia: the mascot?', ['Demo Owl', 'Demo Fox']);
  const globexTrivia = await trivia(globex, 'Globex trivia: where is the Headquarters?', ['Globex Tower', 'Cypress']);
  await p.triviaAnswer.create({ data: { questionId: globexTrivia.id, userId: globexPlayer1, option: 0 } });
  await p.triviaSolution.create({
    data: { questionId: globexTrivia.id, userId: globexPlayer1, isCorrect: true, points: 3 },
  });
  // Community and invitations of Globex beyond the demo data.
  const globexPost = posts.globex;
  const globexComment = await p.postComment.findFirstOrThrow({ where: { postId: globexPost } });
  const globexModeratedComment = await p.postComment.create({
    data: { postId: globexPost, userId: globexPlayer2, text: 'Globex comment for the moderator' },
  });
  await p.postCommentLike.create({ data: { commentId: globexComment.id, userId: globexPlayer1 } });
  const globexInvitation = invitations['new.hire@globex.test'];
  const invite = (email: string, name: string, revokedAt?: Date) =>
    p.invitation.create({ data: { companyId: globex, email, name, revokedAt } });
  const globexRevokedInvitation = await invite('revoked@globex.test', 'Globex Revoked', new Date());
  const globexFreshInvitation = await invite('fresh@globex.test', 'Globex Fresh');
  const globexFresh2Invitation = await invite('fresh2@globex.test', 'Globex Fresh Two');

  // Initech: a company of another reseller, with data of every kind the reseller must not reach.
  const umbrella = await p.company.create({
    data: {
      ...DEFAULT_COMPANY_JSON,
      name: 'Umbrella Resellers',
      code: 'UMBRELLA',
      appPath: 'umbrella',
      isReseller: true,
    },
  });
  const initech = await p.company.create({
    data: {
      ...DEFAULT_COMPANY_JSON,
      name: 'Initech',
      code: 'INITECH',
      appPath: 'initech',
      appCustomDomain: 'prode.initech.test',
      resellerCompanyId: umbrella.id,
    },
  });
  await p.companyTournament.create({ data: { companyId: initech.id, tournamentId: demoCup.id } });
  const initechArea = await p.area.create({ data: { companyId: initech.id, name: 'Initech Basement', level: 1 } });
  const { passwordHash } = demoAdmin;
  const initechUser = (email: string, name: string, role: 'admin' | 'player') =>
    p.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: initech.id,
        email,
        name,
        role,
        passwordHash,
        externalId: email,
        loginProviderId: email,
        areaLevel1Id: initechArea.id,
      },
    });
  await initechUser('admin@initech.test', 'Initech Admin', 'admin');
  const initechPlayer = await initechUser('player@initech.test', 'Initech Player', 'player');
  await p.prediction.create({
    data: { userId: initechPlayer.id, matchId: demoCupFinishedMatch.id, homeTeamGoals: 4, awayTeamGoals: 4 },
  });
  const initechPost = await p.post.create({
    data: { companyId: initech.id, userId: initechPlayer.id, text: 'Initech TPS reports are due' },
  });
  const initechComment = await p.postComment.create({
    data: { postId: initechPost.id, userId: initechPlayer.id, text: 'Initech: did you get the memo?' },
  });
  const initechInvitation = await p.invitation.create({
    data: { companyId: initech.id, email: 'hire@initech.test', name: 'Initech Hire', areaLevel1Id: initechArea.id },
  });
  // Hooli: Umbrella's other company, with an admin who has predicted a shared match. It signs in with its own
  // identity provider only (loginStrategy 1): its admin's password opens nothing.
  const hooli = await p.company.create({
    data: {
      ...DEFAULT_COMPANY_JSON,
      name: 'Hooli',
      code: 'HOOLI',
      appPath: 'hooli',
      resellerCompanyId: umbrella.id,
      loginStrategy: 1,
    },
  });
  await p.companyTournament.create({ data: { companyId: hooli.id, tournamentId: demoCup.id } });
  const hooliAdmin = await p.user.create({
    data: {
      ...DEFAULT_USER_JSON,
      companyId: hooli.id,
      email: 'admin@hooli.test',
      name: 'Hooli Admin',
      role: 'admin',
      passwordHash,
      externalId: 'hooli-admin',
      loginProviderId: 'admin@hooli.test',
    },
  });
  await p.prediction.create({
    data: { userId: hooliAdmin.id, matchId: demoCupFinishedMatch.id, homeTeamGoals: 3, awayTeamGoals: 3 },
  });

  // An audit entry of each company's own: Demo Corp's, Globex's and Initech's corrections.
  const corrected = (companyId: number, actorId: number, targetUserId: number, reason: string) =>
    p.auditEntry.create({
      data: { companyId, actorId, targetUserId, reason, kind: 'PREDICTION_ENTERED', at: new Date(), after: { reason } },
    });
  await corrected(demo, demoAdmin.id, demoPlayer1, 'Demo Corp correction');
  await corrected(globex, globexAdmin, globexPlayer1, 'Globex correction');
  await corrected(initech.id, initechPlayer.id, initechPlayer.id, 'Initech correction');
  const season = (companyId: number, name: string, tournamentId: number) =>
    p.season.create({ data: { companyId, name, tournaments: { create: { tournamentId, weight: 2 } } } });
  const demoSeason = await season(demo, 'Isolation Season', demoCup.id);
  const globexSeason = await season(globex, 'Globex Season', globexCup.id);

  // Secrets with values, so the secrets check has something to find: every user a recovery token, every
  // company a skip-login token.
  const secret = (prefix: string, id: number) => `${prefix}-${id}-${randomBytes(12).toString('hex')}`;
  for (const u of await p.user.findMany({ select: { id: true } })) {
    await p.user.update({ where: { id: u.id }, data: { recoverPasswordToken: secret('rpt', u.id) } });
  }
  for (const c of await p.company.findMany({ select: { id: true } })) {
    await p.company.update({ where: { id: c.id }, data: { skipLoginToken: secret('slt', c.id) } });
  }

  return {
    demoSeason: demoSeason.id,
    globexSeason: globexSeason.id,
    globexNews: globexNews.id,
    globexExtraField: globexExtraField.id,
    globexTeam: reds.id,
    demo,
    globex,
    partners,
    initech: initech.id,
    demoPlayer1,
    demoPlayer2,
    demoAdmin: demoAdmin.id,
    globexPlayer1,
    globexPlayer2,
    globexPlayer3,
    globexAdmin,
    demoPost: posts.demo[0],
    globexPost,
    globexComment: globexComment.id,
    globexModeratedComment: globexModeratedComment.id,
    initechPost: initechPost.id,
    initechComment: initechComment.id,
    demoInvitation: invitations['new.hire1@demo.test'],
    globexInvitation,
    globexRevokedInvitation: globexRevokedInvitation.id,
    globexFreshInvitation: globexFreshInvitation.id,
    initechInvitation: initechInvitation.id,
    globexArea: areas.Headquarters,
    initechArea: initechArea.id,
    demoCup: demoCup.id,
    demoCupFinishedMatch: demoCupFinishedMatch.id,
    demoCupOpenMatch: demoCupOpenMatch.id,
    finalists: [demoCupOpenMatch.homeTeamId, demoCupOpenMatch.awayTeamId],
    globexCup: globexCup.id,
    globexCupRound: globexCupRound.id,
    globexCupMatch: globexCupMatch.id,
    globexBonusQuestion: globexBonusQuestion.id,
    globexDream: globexDream.id,
    demoLeague: demoLeague.id,
    globexLeague: globexLeague.id,
    globexLeagueInvitation: globexLeagueInvitation.id,
    globexNotification: globexNotification.id,
    demoTrivia: demoTrivia.id,
    globexTrivia: globexTrivia.id,
    jwt: {
      globexLink: await forgeInvitationLink(globexInvitation),
      globexRevokedLink: await forgeInvitationLink(globexRevokedInvitation.id),
      globexFreshLink: await forgeInvitationLink(globexFreshInvitation.id),
      globexFresh2Link: await forgeInvitationLink(globexFresh2Invitation.id),
      initechLink: await forgeInvitationLink(initechInvitation.id),
      forgedGlobexLink: await forgeInvitationLink(globexInvitation, { secret: FOREIGN_SECRET }),
      expiredGlobexLink: await forgeInvitationLink(globexInvitation, { expiresIn: -60 }),
      accessAsLink: await forgeAccessToken({ userId: globexInvitation, companyId: globex, role: 'player' }),
      linkAsAccess: await forgeInvitationLink(globexAdmin),
      crossClaims: await forgeAccessToken({ userId: globexAdmin, companyId: demo, role: 'admin' }),
    },
  };
}
