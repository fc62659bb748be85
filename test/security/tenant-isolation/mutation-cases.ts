// The matrix's rows for the root Mutation fields (matrix.ts says what a row is and what the matrix proves). Refused
// writes name the rows they must leave unchanged.
import { expect } from 'vitest';
import { RestLoginDocument, RestUpdateInvitationDocument } from '../../../src/graphql/generated/operations.ts';
import { DEMO_PASSWORD } from '../../helpers/app.ts';
import { Q } from './documents.ts';
import { FB, gComment, gPost, NF, resellerToInitech, SNAP, switchingToGlobex, UN, type Case } from './matrix.ts';

/** Everyone's notification choices but those of the rows' callers (the Demo player and admin) themselves. */
const othersNotificationSettings: Case['unchanged'] = (p, x) =>
  p.user.findMany({
    where: { id: { notIn: [x.demoPlayer1, x.demoAdmin] } },
    orderBy: { id: 'asc' },
    select: { id: true, notificationSettings: true },
  });
const newGlobexInvite = { input: { email: 'sneaky@globex.test', name: 'Sneaky', role: 'player' } };

// A table, one row per request, laid out by hand: prettier would give each property of a row a line of its own.
// prettier-ignore
export const MUTATION_CASES: Case[] = [
  { op: 'acceptInvitation', as: 'anon', why: 'an access token is not an invitation link', doc: Q.acceptInvitation,
    vars: (x) => ({ jwt: x.jwt.accessAsLink }), expect: NF, unchanged: SNAP.users },
  { op: 'acceptInvitation', as: 'player', why: "Globex's revoked invitation", doc: Q.acceptInvitation,
    vars: (x) => ({ jwt: x.jwt.globexRevokedLink }), expect: NF, unchanged: SNAP.users },
  { op: 'acceptInvitation', as: 'reseller', why: 'a forged Globex link', doc: Q.acceptInvitation,
    vars: (x) => ({ jwt: x.jwt.forgedGlobexLink }), expect: NF, unchanged: SNAP.users },
  // As invitationByJwt: the header must not turn the new Globex user's response into a view of Demo Corp's users.
  { op: 'acceptInvitation', as: 'anon', h: { 'x-app-path': 'demo' },
    why: 'a valid Globex link with Demo Corp named by header shows no Demo Corp user or prediction',
    doc: Q.acceptInvitation, vars: (x) => ({ jwt: x.jwt.globexFresh2Link }), expect: 'OK',
    forbid: ['demo', 'initech', 'hooli'] },
  {
    op: 'acceptInvitation', as: 'player', h: { 'x-app-path': 'demo' },
    why: "a valid Globex link creates a Globex user: the tenant header cannot redirect it", doc: Q.acceptInvitation,
    vars: (x) => ({ jwt: x.jwt.globexFreshLink }), expect: 'OK', forbid: ['initech', 'hooli'],
    check: async (d, x, p) => {
      expect(d.user.company.name).toBe('Globex');
      const created = await p.user.findFirstOrThrow({ where: { email: 'fresh@globex.test' } });
      expect(created.companyId).toBe(x.globex);
    },
  },

  { op: 'createComment', as: 'player', why: "on Globex's post", doc: Q.createComment,
    vars: (x) => ({ postId: x.globexPost }), expect: NF, unchanged: SNAP.community },
  { op: 'createComment', as: 'admin', why: "on Globex's post", doc: Q.createComment,
    vars: (x) => ({ postId: x.globexPost }), expect: NF, unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'createComment', why: "on Globex's post", doc: Q.createComment, vars: (x) => ({ postId: x.globexPost }),
    unchanged: SNAP.community,
  }),
  { op: 'createComment', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'community posts are written in the own company', doc: Q.createComment,
    vars: (x) => ({ postId: x.globexPost }), expect: FB, unchanged: SNAP.community },
  ...resellerToInitech({
    op: 'createComment', why: "on Initech's post", doc: Q.createComment, vars: (x) => ({ postId: x.initechPost }),
    unchanged: SNAP.community,
  }),

  { op: 'createInternalRanking', as: 'player', why: "on Globex's custom tournament", doc: Q.createInternalRanking,
    vars: (x) => ({ t: x.globexCup }), expect: NF, unchanged: SNAP.leagues },
  ...switchingToGlobex({
    op: 'createInternalRanking', why: 'a league', doc: Q.createInternalRanking, vars: (x) => ({ t: x.demoCup }),
    unchanged: SNAP.leagues,
  }),
  { op: 'createInternalRanking', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'leagues are played in the own company', doc: Q.createInternalRanking, vars: (x) => ({ t: x.demoCup }),
    expect: FB, unchanged: SNAP.leagues },
  ...resellerToInitech({
    op: 'createInternalRanking', why: 'a league', doc: Q.createInternalRanking, vars: (x) => ({ t: x.demoCup }),
    unchanged: SNAP.leagues,
  }),

  { op: 'createInvitation', as: 'admin', why: "placed in Globex's area", doc: Q.createInvitation,
    vars: (x) => ({ input: { email: 'sneaky@demo.test', role: 'player', areaLevel1: { id: x.globexArea } } }),
    expect: 'BAD_USER_INPUT', unchanged: SNAP.invitations },
  ...switchingToGlobex({
    op: 'createInvitation', why: 'an invitation into Globex', doc: Q.createInvitation, vars: () => newGlobexInvite,
    unchanged: SNAP.invitations,
  }),
  { op: 'createInvitation', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: 'invites into a managed company',
    doc: Q.createInvitation, vars: () => ({ input: { email: 'by.reseller@globex.test', role: 'player' } }),
    expect: 'OK', check: (d) => expect(d.invitation.company.name).toBe('Globex') },
  ...resellerToInitech({ op: 'createInvitation', why: 'an invitation into Initech', doc: Q.createInvitation,
    vars: () => ({ input: { email: 'sneaky@initech.test', role: 'player' } }), unchanged: SNAP.invitations }),

  ...switchingToGlobex({ op: 'createPost', why: 'a post in Globex', doc: Q.createPost, unchanged: SNAP.community }),
  { op: 'createPost', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'community posts are written in the own company', doc: Q.createPost, expect: FB, unchanged: SNAP.community },
  ...resellerToInitech({ op: 'createPost', why: 'a post in Initech', doc: Q.createPost, unchanged: SNAP.community }),

  { op: 'deleteComment', as: 'admin', why: "Globex's comment", doc: Q.deleteComment, vars: gComment, expect: NF,
    unchanged: SNAP.community },
  { op: 'deleteComment', as: 'player', why: "Globex's comment", doc: Q.deleteComment, vars: gComment, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'deleteComment', why: "Globex's comment", doc: Q.deleteComment, vars: gComment, unchanged: SNAP.community,
  }),
  {
    op: 'deleteComment', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "moderates a managed company's comment",
    doc: Q.deleteComment, vars: (x) => ({ id: x.globexModeratedComment }), expect: 'OK',
    check: async (_d, x, p) =>
      expect(await p.postComment.findUnique({ where: { id: x.globexModeratedComment } })).toBeNull(),
  },
  { op: 'deleteComment', as: 'reseller', why: "Initech's comment from its own company", doc: Q.deleteComment,
    vars: (x) => ({ id: x.initechComment }), expect: NF, unchanged: SNAP.community },
  { op: 'deleteComment', as: 'reseller', h: { 'x-app-path': 'demo' },
    why: "Initech's comment while acting on Demo Corp", doc: Q.deleteComment, vars: (x) => ({ id: x.initechComment }),
    expect: NF, unchanged: SNAP.community },
  ...resellerToInitech({
    op: 'deleteComment', why: "Initech's comment", doc: Q.deleteComment, vars: (x) => ({ id: x.initechComment }),
    unchanged: SNAP.community,
  }),

  { op: 'deletePost', as: 'admin', why: "Globex's post", doc: Q.deletePost, vars: gPost, expect: NF,
    unchanged: SNAP.community },
  { op: 'deletePost', as: 'player', why: "Globex's post", doc: Q.deletePost, vars: gPost, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'deletePost', why: "Globex's post", doc: Q.deletePost, vars: gPost, unchanged: SNAP.community,
  }),
  { op: 'deletePost', as: 'globexPlayer', why: "Demo Corp's post", doc: Q.deletePost, vars: (x) => ({ id: x.demoPost }),
    expect: NF, unchanged: SNAP.community },
  { op: 'deletePost', as: 'reseller', h: { 'x-app-path': 'demo' }, why: "Initech's post while acting on Demo Corp",
    doc: Q.deletePost, vars: (x) => ({ id: x.initechPost }), expect: NF, unchanged: SNAP.community },
  ...resellerToInitech({
    op: 'deletePost', why: "Initech's post", doc: Q.deletePost, vars: (x) => ({ id: x.initechPost }),
    unchanged: SNAP.community,
  }),

  { op: 'inviteToInternalRanking', as: 'player', why: 'a Globex user into the own league',
    doc: Q.inviteToInternalRanking, vars: (x) => ({ r: x.demoLeague, u: x.globexPlayer2 }), expect: NF,
    unchanged: SNAP.leagues },
  { op: 'inviteToInternalRanking', as: 'player', why: "a colleague into Globex's league",
    doc: Q.inviteToInternalRanking, vars: (x) => ({ r: x.globexLeague, u: x.demoPlayer2 }), expect: NF,
    unchanged: SNAP.leagues },
  ...switchingToGlobex({ op: 'inviteToInternalRanking', why: "into Globex's league", doc: Q.inviteToInternalRanking,
    vars: (x) => ({ r: x.globexLeague, u: x.globexPlayer3 }), unchanged: SNAP.leagues }),

  { op: 'leaveInternalRanking', as: 'player', why: "Globex's league", doc: Q.leaveInternalRanking,
    vars: (x) => ({ r: x.globexLeague }), expect: NF, unchanged: SNAP.leagues },
  ...switchingToGlobex({ op: 'leaveInternalRanking', why: "Globex's league", doc: Q.leaveInternalRanking,
    vars: (x) => ({ r: x.globexLeague }), unchanged: SNAP.leagues }),

  { op: 'likeComment', as: 'player', why: "Globex's comment", doc: Q.likeComment, vars: gComment, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'likeComment', why: "Globex's comment", doc: Q.likeComment, vars: gComment, unchanged: SNAP.community,
  }),

  { op: 'likePost', as: 'player', why: "Globex's post", doc: Q.likePost, vars: gPost, expect: NF,
    unchanged: SNAP.community },
  { op: 'likePost', as: 'admin', why: "Globex's post", doc: Q.likePost, vars: gPost, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'likePost', why: "Globex's post", doc: Q.likePost, vars: gPost, unchanged: SNAP.community,
  }),
  ...resellerToInitech({ op: 'likePost', why: "Initech's post", doc: Q.likePost, vars: (x) => ({ id: x.initechPost }),
    unchanged: SNAP.community }),

  { op: 'login', as: 'anon', h: { 'x-app-host': 'prode.globex.test' }, why: 'Demo Corp credentials against Globex',
    doc: Q.login, vars: () => ({ email: 'player1@demo.test' }), expect: UN, unchanged: SNAP.users },
  { op: 'login', as: 'anon', h: { 'x-app-path': 'globex' }, why: 'Demo Corp credentials against Globex', doc: Q.login,
    vars: () => ({ email: 'admin@demo.test' }), expect: UN, unchanged: SNAP.users },
  { op: 'login', as: 'anon', h: { 'x-app-company': 'GLOBEX' }, why: 'Demo Corp credentials against Globex',
    doc: Q.login, vars: () => ({ email: 'player1@demo.test' }), expect: UN, unchanged: SNAP.users },
  { op: 'login', as: 'anon', h: { 'x-app-path': 'demo' }, why: 'Globex credentials against Demo Corp', doc: Q.login,
    vars: () => ({ email: 'player1@globex.test' }), expect: UN, unchanged: SNAP.users },
  { op: 'login', as: 'anon', h: { 'x-app-path': 'demo' }, why: 'Initech credentials against Demo Corp', doc: Q.login,
    vars: () => ({ email: 'admin@initech.test' }), expect: UN, unchanged: SNAP.users },
  // Hooli signs in with its own identity provider only (loginStrategy 1): the right password is refused there, with
  // where to sign in (which names Hooli: the caller named it); a wrong one or an unknown e-mail get the usual answer.
  { op: 'login', as: 'anon', h: { 'x-app-path': 'hooli' }, why: "Hooli's admin, right password: provider only",
    doc: Q.login, vars: () => ({ email: 'admin@hooli.test' }), expect: FB, forbid: ['demo', 'globex', 'initech'],
    unchanged: SNAP.users },
  { op: 'login', as: 'anon', h: { 'x-app-path': 'hooli' }, why: 'an unknown e-mail at Hooli: as anywhere',
    doc: Q.login, vars: () => ({ email: 'nobody@hooli.test' }), expect: UN, unchanged: SNAP.users },
  { op: 'login', as: 'anon', h: { 'x-app-path': 'demo' }, why: 'Hooli credentials against Demo Corp', doc: Q.login,
    vars: () => ({ email: 'admin@hooli.test' }), expect: UN, unchanged: SNAP.users },
  { op: 'login', as: 'player', h: { 'x-app-path': 'demo' }, why: 'own credentials: the user carries no other company',
    doc: RestLoginDocument, vars: () => ({ email: 'player1@demo.test', password: DEMO_PASSWORD }), expect: 'OK',
    check: (d) => expect(d.user.email).toBe('player1@demo.test') },

  { op: 'markNotificationsRead', as: 'player', why: "Globex's notification by id changes nothing",
    doc: Q.markNotificationsRead, vars: (x) => ({ ids: [x.globexNotification] }), expect: 'OK',
    check: (d) => expect(d).toBe(0), unchanged: SNAP.notifications },
  ...switchingToGlobex({ op: 'markNotificationsRead', why: "Globex's notification", doc: Q.markNotificationsRead,
    vars: (x) => ({ ids: [x.globexNotification] }), expect: ['OK', FB], check: (d) => expect(d).toBe(0),
    unchanged: SNAP.notifications }),

  // The caller's own choices only: nobody else's settings change, whichever company a header names.
  { op: 'updateNotificationSettings', as: 'player', why: "another person's notification choices",
    doc: Q.updateNotificationSettings, vars: () => ({ input: { reminderHoursBefore: 6 } }), expect: 'OK',
    check: (d) => expect(d.reminderHoursBefore).toBe(6), unchanged: othersNotificationSettings },
  ...switchingToGlobex({ op: 'updateNotificationSettings', why: "a Globex person's notification choices",
    doc: Q.updateNotificationSettings, vars: () => ({ input: { emailEnabled: true } }), expect: ['OK', FB],
    unchanged: othersNotificationSettings }),
  { op: 'updateNotificationSettings', as: 'anon', why: 'nobody signed in', doc: Q.updateNotificationSettings,
    vars: () => ({ input: { reminderHoursBefore: 6 } }), expect: UN, unchanged: othersNotificationSettings },

  { op: 'respondToInternalRankingInvitation', as: 'player', why: "Globex's league invitation",
    doc: Q.respondToInternalRankingInvitation, vars: (x) => ({ id: x.globexLeagueInvitation }), expect: NF,
    unchanged: SNAP.leagues },
  ...switchingToGlobex({
    op: 'respondToInternalRankingInvitation', why: "Globex's league invitation",
    doc: Q.respondToInternalRankingInvitation, vars: (x) => ({ id: x.globexLeagueInvitation }), unchanged: SNAP.leagues,
  }),

  { op: 'revokeInvitation', as: 'admin', why: "Globex's invitation", doc: Q.revokeInvitation,
    vars: (x) => ({ id: x.globexInvitation }), expect: NF, unchanged: SNAP.invitations },
  ...switchingToGlobex({ op: 'revokeInvitation', why: "Globex's invitation", doc: Q.revokeInvitation,
    vars: (x) => ({ id: x.globexInvitation }), unchanged: SNAP.invitations }),
  { op: 'revokeInvitation', as: 'reseller', h: { 'x-app-path': 'demo' },
    why: "Initech's invitation while acting on Demo Corp", doc: Q.revokeInvitation,
    vars: (x) => ({ id: x.initechInvitation }), expect: NF, unchanged: SNAP.invitations },
  ...resellerToInitech({ op: 'revokeInvitation', why: "Initech's invitation", doc: Q.revokeInvitation,
    vars: (x) => ({ id: x.initechInvitation }), unchanged: SNAP.invitations }),

  { op: 'setDreamFinalPicks', as: 'player', why: "Globex's dream-finals setting", doc: Q.setDreamFinalPicks,
    vars: (x) => ({ s: x.globexDream, teams: x.finalists }), expect: NF, unchanged: SNAP.game },
  ...switchingToGlobex({ op: 'setDreamFinalPicks', why: "Globex's dream-finals setting", doc: Q.setDreamFinalPicks,
    vars: (x) => ({ s: x.globexDream, teams: x.finalists }), unchanged: SNAP.game }),
  { op: 'setDreamFinalPicks', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'dream finals are played in the own company', doc: Q.setDreamFinalPicks,
    vars: (x) => ({ s: x.globexDream, teams: x.finalists }), expect: FB, unchanged: SNAP.game },

  { op: 'setMatchResult', as: 'admin', why: "a match of Globex's custom tournament", doc: Q.setMatchResult,
    vars: (x) => ({ m: x.globexCupMatch }), expect: NF, unchanged: SNAP.game },
  { op: 'setMatchResult', as: 'player', why: "a match of Globex's custom tournament", doc: Q.setMatchResult,
    vars: (x) => ({ m: x.globexCupMatch }), expect: NF, unchanged: SNAP.game },
  ...switchingToGlobex({
    op: 'setMatchResult', why: "Globex's custom match", doc: Q.setMatchResult, vars: (x) => ({ m: x.globexCupMatch }),
    unchanged: SNAP.game,
  }),
  { op: 'setMatchResult', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'only managers and the owning admins set results', doc: Q.setMatchResult,
    vars: (x) => ({ m: x.globexCupMatch }), expect: FB, unchanged: SNAP.game },
  ...resellerToInitech({
    op: 'setMatchResult', why: 'a shared match', doc: Q.setMatchResult, vars: (x) => ({ m: x.demoCupOpenMatch }),
    unchanged: SNAP.game,
  }),

  { op: 'unlikeComment', as: 'player', why: "Globex's comment", doc: Q.unlikeComment, vars: gComment, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'unlikeComment', why: "Globex's comment", doc: Q.unlikeComment, vars: gComment, unchanged: SNAP.community,
  }),

  { op: 'unlikePost', as: 'player', why: "Globex's post", doc: Q.unlikePost, vars: gPost, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'unlikePost', why: "Globex's post", doc: Q.unlikePost, vars: gPost, unchanged: SNAP.community,
  }),

  { op: 'updateComment', as: 'player', why: "Globex's comment", doc: Q.updateComment, vars: gComment, expect: NF,
    unchanged: SNAP.community },
  { op: 'updateComment', as: 'admin', why: "Globex's comment", doc: Q.updateComment, vars: gComment, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'updateComment', why: "Globex's comment", doc: Q.updateComment, vars: gComment, unchanged: SNAP.community,
  }),
  { op: 'updateComment', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'the reseller authors nothing in a managed company', doc: Q.updateComment, vars: gComment, expect: FB,
    unchanged: SNAP.community },

  { op: 'updateInvitation', as: 'admin', why: "Globex's invitation", doc: RestUpdateInvitationDocument,
    vars: (x) => ({ id: x.globexInvitation, input: { name: 'hijacked' } }), expect: NF, unchanged: SNAP.invitations },
  { op: 'updateInvitation', as: 'admin', why: 'moving an own invitation into Globex', doc: RestUpdateInvitationDocument,
    vars: (x) => ({ id: x.demoInvitation, input: { company: { id: x.globex } } }), expect: FB,
    unchanged: SNAP.invitations },
  ...switchingToGlobex({ op: 'updateInvitation', why: "Globex's invitation", doc: RestUpdateInvitationDocument,
    vars: (x) => ({ id: x.globexInvitation, input: { name: 'hijacked' } }), unchanged: SNAP.invitations }),
  {
    op: 'updateInvitation', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: "changes a managed company's invitation", doc: RestUpdateInvitationDocument,
    vars: (x) => ({ id: x.globexInvitation, input: { name: 'Globex Hire (by the reseller)' } }), expect: 'OK',
    check: (d) => expect(d.name).toBe('Globex Hire (by the reseller)'),
  },
  { op: 'updateInvitation', as: 'reseller', h: { 'x-app-path': 'demo' },
    why: "Initech's invitation while acting on Demo Corp", doc: RestUpdateInvitationDocument,
    vars: (x) => ({ id: x.initechInvitation, input: { name: 'hijacked' } }), expect: NF, unchanged: SNAP.invitations },
  { op: 'updateInvitation', as: 'reseller', h: { 'x-app-path': 'demo' },
    why: 'moving a Demo Corp invitation into Initech', doc: RestUpdateInvitationDocument,
    vars: (x) => ({ id: x.demoInvitation, input: { company: { id: x.initech } } }), expect: FB,
    unchanged: SNAP.invitations },
  ...resellerToInitech({ op: 'updateInvitation', why: "Initech's invitation", doc: RestUpdateInvitationDocument,
    vars: (x) => ({ id: x.initechInvitation, input: { name: 'hijacked' } }), unchanged: SNAP.invitations }),

  { op: 'updatePost', as: 'player', why: "Globex's post", doc: Q.updatePost, vars: gPost, expect: NF,
    unchanged: SNAP.community },
  { op: 'updatePost', as: 'admin', why: "Globex's post", doc: Q.updatePost, vars: gPost, expect: NF,
    unchanged: SNAP.community },
  ...switchingToGlobex({
    op: 'updatePost', why: "Globex's post", doc: Q.updatePost, vars: gPost, unchanged: SNAP.community,
  }),
  { op: 'updatePost', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'the reseller authors nothing in a managed company', doc: Q.updatePost, vars: gPost, expect: FB,
    unchanged: SNAP.community },
  ...resellerToInitech({
    op: 'updatePost', why: "Initech's post", doc: Q.updatePost, vars: (x) => ({ id: x.initechPost }),
    unchanged: SNAP.community,
  }),

  { op: 'upsertPrediction', as: 'player', why: "a future match of Globex's custom tournament", doc: Q.upsertPrediction,
    vars: (x) => ({ m: x.globexCupMatch }), expect: NF, unchanged: SNAP.game },
  { op: 'upsertPrediction', as: 'admin', why: "a future match of Globex's custom tournament", doc: Q.upsertPrediction,
    vars: (x) => ({ m: x.globexCupMatch }), expect: NF, unchanged: SNAP.game },
  ...switchingToGlobex({ op: 'upsertPrediction', why: 'an open shared match', doc: Q.upsertPrediction,
    vars: (x) => ({ m: x.demoCupOpenMatch }), unchanged: SNAP.game }),
  { op: 'upsertPrediction', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'predictions are made in the own company', doc: Q.upsertPrediction, vars: (x) => ({ m: x.globexCupMatch }),
    expect: FB, unchanged: SNAP.game },
  ...resellerToInitech({ op: 'upsertPrediction', why: 'an open shared match', doc: Q.upsertPrediction,
    vars: (x) => ({ m: x.demoCupOpenMatch }), unchanged: SNAP.game }),

  { op: 'setPredictionFor', as: 'admin', why: "a Globex player, on Globex's match", doc: Q.setPredictionFor,
    vars: (x) => ({ u: x.globexPlayer1, m: x.globexCupMatch }), expect: NF, unchanged: SNAP.corrections },
  { op: 'setPredictionFor', as: 'admin', why: 'a Globex player, on a shared match', doc: Q.setPredictionFor,
    vars: (x) => ({ u: x.globexPlayer1, m: x.demoCupFinishedMatch }), expect: NF, unchanged: SNAP.corrections },
  { op: 'setPredictionFor', as: 'player', why: 'a player corrects nobody, not even a colleague',
    doc: Q.setPredictionFor, vars: (x) => ({ u: x.demoPlayer2, m: x.demoCupFinishedMatch }), expect: FB,
    unchanged: SNAP.corrections },
  { op: 'setPredictionFor', as: 'globexPlayer', why: 'a Globex player corrects nobody', doc: Q.setPredictionFor,
    vars: (x) => ({ u: x.globexPlayer2, m: x.demoCupFinishedMatch }), expect: FB, unchanged: SNAP.corrections },
  ...switchingToGlobex({ op: 'setPredictionFor', why: 'a Globex player', doc: Q.setPredictionFor,
    vars: (x) => ({ u: x.globexPlayer1, m: x.demoCupFinishedMatch }), unchanged: SNAP.corrections }),
  { op: 'setPredictionFor', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: 'acting on Globex, a Demo Corp player is nobody there', doc: Q.setPredictionFor,
    vars: (x) => ({ u: x.demoPlayer1, m: x.demoCupFinishedMatch }), expect: NF, unchanged: SNAP.corrections },
  ...resellerToInitech({ op: 'setPredictionFor', why: 'a Demo Corp player', doc: Q.setPredictionFor,
    vars: (x) => ({ u: x.demoPlayer1, m: x.demoCupFinishedMatch }), unchanged: SNAP.corrections }),
  { op: 'createSeason', as: 'admin', why: "of Globex's custom tournament", doc: Q.createSeason,
    vars: (x) => ({ t: x.globexCup }), expect: 'BAD_USER_INPUT', unchanged: SNAP.seasons },
  { op: 'createSeason', as: 'player', why: 'players do not write seasons', doc: Q.createSeason,
    vars: (x) => ({ t: x.demoCup }), expect: FB, unchanged: SNAP.seasons },
  ...switchingToGlobex({ op: 'createSeason', why: 'a season in Globex', doc: Q.createSeason,
    vars: (x) => ({ t: x.demoCup }), unchanged: SNAP.seasons }),
  ...resellerToInitech({ op: 'createSeason', why: 'a season in Initech', doc: Q.createSeason,
    vars: (x) => ({ t: x.demoCup }), unchanged: SNAP.seasons }),

  { op: 'updateSeason', as: 'admin', why: "Globex's season", doc: Q.updateSeason,
    vars: (x) => ({ id: x.globexSeason }), expect: NF, unchanged: SNAP.seasons },
  { op: 'updateSeason', as: 'player', why: "the own company's season", doc: Q.updateSeason,
    vars: (x) => ({ id: x.demoSeason }), expect: FB, unchanged: SNAP.seasons },
  ...switchingToGlobex({ op: 'updateSeason', why: "Globex's season", doc: Q.updateSeason,
    vars: (x) => ({ id: x.globexSeason }), unchanged: SNAP.seasons }),
  ...resellerToInitech({ op: 'updateSeason', why: "Demo Corp's season", doc: Q.updateSeason,
    vars: (x) => ({ id: x.demoSeason }), unchanged: SNAP.seasons }),

  { op: 'deleteSeason', as: 'admin', why: "Globex's season", doc: Q.deleteSeason,
    vars: (x) => ({ id: x.globexSeason }), expect: NF, unchanged: SNAP.seasons },
  { op: 'deleteSeason', as: 'globexPlayer', why: "Demo Corp's season", doc: Q.deleteSeason,
    vars: (x) => ({ id: x.demoSeason }), expect: FB, unchanged: SNAP.seasons },
  ...switchingToGlobex({ op: 'deleteSeason', why: "Globex's season", doc: Q.deleteSeason,
    vars: (x) => ({ id: x.globexSeason }), unchanged: SNAP.seasons }),
  ...resellerToInitech({ op: 'deleteSeason', why: "Demo Corp's season", doc: Q.deleteSeason,
    vars: (x) => ({ id: x.demoSeason }), unchanged: SNAP.seasons }),
];
