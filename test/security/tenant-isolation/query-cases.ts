// The matrix's rows for the root Query fields (matrix.ts says what a row is and what the matrix proves).
import { expect } from 'vitest';
import {
  RestInvitationByJwtDocument,
  RestPostCommentsDocument,
  RestPostDocument,
} from '../../../src/graphql/generated/operations.ts';
import { bearer } from '../../helpers/app.ts';
import { Q } from './documents.ts';
import {
  emails,
  FB,
  gPost,
  names,
  NF,
  onlyDemoEmails,
  onlyRanked,
  resellerToInitech,
  switchingToGlobex,
  UN,
  type Case,
} from './matrix.ts';

// A table, one row per request, laid out by hand: prettier would give each property of a row a line of its own.
// prettier-ignore
export const QUERY_CASES: Case[] = [
  { op: 'companiesSearch', as: 'player', why: 'lists only the own company', doc: Q.companiesSearch, vars: () => ({}),
    expect: 'OK', check: (d) => expect(names(d)).toEqual(['Demo Corp']) },
  { op: 'companiesSearch', as: 'admin', why: 'a search for Globex finds nothing', doc: Q.companiesSearch,
    vars: () => ({ search: 'glo' }), expect: 'OK', check: (d) => expect(d).toEqual([]) },
  ...switchingToGlobex({ op: 'companiesSearch', why: 'search', doc: Q.companiesSearch, vars: () => ({}) }),
  { op: 'companiesSearch', as: 'reseller', why: 'lists its own and the managed companies, not Initech',
    doc: Q.companiesSearch, vars: () => ({}), expect: 'OK',
    check: (d) => expect(names(d)).toEqual(['Channel Partners', 'Demo Corp', 'Globex']) },
  { op: 'companiesSearch', as: 'reseller', why: 'a search for Initech finds nothing', doc: Q.companiesSearch,
    vars: () => ({ search: 'initech' }), expect: 'OK', check: (d) => expect(d).toEqual([]) },
  { op: 'companiesSearch', as: 'reseller', h: { 'x-app-path': 'demo' },
    why: 'acting on Demo Corp still lists nothing beyond its reach', doc: Q.companiesSearch,
    vars: () => ({ search: 'e' }), expect: 'OK', check: (d) => expect(names(d)).not.toContain('Initech') },
  ...resellerToInitech({ op: 'companiesSearch', why: 'search', doc: Q.companiesSearch, vars: () => ({}) }),

  {
    op: 'company', as: 'player', why: 'the own company; the reseller\'s managed companies stay hidden', doc: Q.company,
    expect: 'OK',
    check: (d) => {
      expect(d.name).toBe('Demo Corp');
      expect(d.resellerCompany).toEqual({ name: 'Channel Partners', managerUsers: null, areas: [], tournaments: [] });
      expect(d.skipLoginToken).toBeNull();
    },
  },
  { op: 'company', as: 'admin', h: { 'x-app-path': 'demo' }, why: 'the own company by its own path', doc: Q.company,
    expect: 'OK', check: (d) => expect(d.name).toBe('Demo Corp') },
  { op: 'company', as: 'admin', h: { 'x-app-company': 'DEMO' },
    why: 'x-app-company is refused even for the own company', doc: Q.company, expect: FB },
  { op: 'company', as: 'player', h: { 'x-app-path': 'partners' }, why: 'the reseller company is not the player\'s',
    doc: Q.company, expect: FB },
  ...switchingToGlobex({ op: 'company', why: 'the tenant', doc: Q.company }),
  {
    op: 'company', as: 'reseller', why: 'its own company lists only Demo Corp and Globex as managed', doc: Q.company,
    expect: 'OK',
    check: (d) => {
      expect(d.name).toBe('Channel Partners');
      expect(names(d.managedCompanies)).toEqual(['Demo Corp', 'Globex']);
    },
  },
  { op: 'company', as: 'reseller', h: { 'x-app-path': 'demo' }, why: 'reaches Demo Corp by x-app-path', doc: Q.company,
    expect: 'OK', check: (d) => expect(d.name).toBe('Demo Corp') },
  { op: 'company', as: 'reseller', h: (x) => ({ 'x-app-company': String(x.demo) }),
    why: 'reaches Demo Corp by x-app-company id', doc: Q.company, expect: 'OK',
    check: (d) => expect(d.name).toBe('Demo Corp') },
  { op: 'company', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: 'reaches Globex by x-app-company code',
    doc: Q.company, expect: 'OK', check: (d) => expect(d.name).toBe('Globex') },
  { op: 'company', as: 'reseller', h: { 'x-app-host': 'prode.globex.test' }, why: 'reaches Globex by x-app-host',
    doc: Q.company, expect: 'OK', check: (d) => expect(d.name).toBe('Globex') },
  ...resellerToInitech({ op: 'company', why: 'the tenant', doc: Q.company }),
  { op: 'company', as: 'globexPlayer', why: 'Globex sees only Globex', doc: Q.company, expect: 'OK',
    check: (d) => expect(d.name).toBe('Globex') },

  { op: 'signInMethods', as: 'anon', why: "Globex's login page: that it has a provider, never its issuer",
    doc: `query { signInMethods(company: "GLOBEX") { loginStrategy password providers { provider issuer startUrl } } }`,
    expect: 'OK', forbid: ['demo', 'initech', 'hooli'],
    check: (d) => {
      expect(d.providers).toEqual([expect.objectContaining({ provider: 'company', issuer: null })]);
      expect(JSON.stringify(d)).not.toMatch(/sso\.globex\.test|globex-client/);
    } },
  { op: 'signInMethods', as: 'globexPlayer', why: 'Hooli, out of reach when signed in, shows its login page only',
    doc: `query { signInMethods(company: "hooli") { loginStrategy password providers { provider } } }`,
    expect: 'OK', forbid: ['demo', 'globex', 'initech'],
    check: (d) => expect(d).toEqual({ loginStrategy: 1, password: false, providers: [] }) },
  { op: 'invitationByJwt', as: 'anon', why: 'an access token is not an invitation link',
    doc: RestInvitationByJwtDocument, vars: (x) => ({ jwt: x.jwt.accessAsLink }), expect: NF },
  { op: 'invitationByJwt', as: 'player', why: "Globex's revoked invitation", doc: RestInvitationByJwtDocument,
    vars: (x) => ({ jwt: x.jwt.globexRevokedLink }), expect: NF },
  { op: 'invitationByJwt', as: 'player', why: 'a Globex link signed with another secret',
    doc: RestInvitationByJwtDocument, vars: (x) => ({ jwt: x.jwt.forgedGlobexLink }), expect: NF },
  { op: 'invitationByJwt', as: 'admin', why: 'an expired Globex link', doc: RestInvitationByJwtDocument,
    vars: (x) => ({ jwt: x.jwt.expiredGlobexLink }), expect: NF },
  { op: 'invitationByJwt', as: 'player', h: { 'x-app-path': 'demo' },
    why: 'a valid Globex link is public by design (docs/security.md) and carries no secret',
    doc: RestInvitationByJwtDocument, vars: (x) => ({ jwt: x.jwt.globexLink }), expect: 'OK',
    forbid: ['initech', 'hooli'], check: (d) => expect(d.company.name).toBe('Globex') },
  { op: 'invitationByJwt', as: 'anon',
    why: "a valid Initech link shows Initech only: not its reseller's other companies", doc: Q.invitationByJwt,
    vars: (x) => ({ jwt: x.jwt.initechLink }), expect: 'OK', forbid: ['demo', 'globex', 'hooli'],
    check: (d) => expect(d.company.name).toBe('Initech') },
  // Anonymous callers: the tenant header must not turn a link of one company into a view of another's users
  // and predictions (an anonymous caller's tenant comes from the header, and the predictions loader scopes by it).
  { op: 'invitationByJwt', as: 'anon', h: { 'x-app-path': 'demo' },
    why: "a Globex link with Demo Corp named by header shows no Demo Corp user or prediction", doc: Q.invitationByJwt,
    vars: (x) => ({ jwt: x.jwt.globexLink }), expect: 'OK', forbid: ['demo', 'initech', 'hooli'] },
  { op: 'invitationByJwt', as: 'anon', h: { authorization: 'Bearer not-a-token', 'x-app-host': 'prode.globex.test' },
    why: 'an Initech link, a bad token and Globex named by header show no Globex user or prediction',
    doc: Q.invitationByJwt, vars: (x) => ({ jwt: x.jwt.initechLink }), expect: 'OK',
    forbid: ['demo', 'globex', 'hooli'] },
  // A reseller holding another reseller's company's link must not list that reseller's managed companies
  // (Company.managedCompanies must check that the reseller company is the caller's, not only the caller's role).
  { op: 'invitationByJwt', as: 'reseller',
    why: "an Initech link does not list the other companies of Initech's reseller", doc: Q.invitationByJwt,
    vars: (x) => ({ jwt: x.jwt.initechLink }), expect: 'OK', forbid: ['hooli'],
    check: (d) => expect(d.company.name).toBe('Initech') },

  { op: 'match', as: 'player', why: "a match of Globex's custom tournament", doc: Q.match,
    vars: (x) => ({ id: x.globexCupMatch }), expect: NF },
  { op: 'match', as: 'admin', why: "a match of Globex's custom tournament", doc: Q.match,
    vars: (x) => ({ id: x.globexCupMatch }), expect: NF },
  ...switchingToGlobex({
    op: 'match', why: "Globex's custom match", doc: Q.match, vars: (x) => ({ id: x.globexCupMatch }),
  }),
  { op: 'match', as: 'player', why: 'a shared, finished match shows only Demo Corp predictions', doc: Q.match,
    vars: (x) => ({ id: x.demoCupFinishedMatch }), expect: 'OK', check: onlyDemoEmails },
  { op: 'match', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's custom match", doc: Q.match,
    vars: (x) => ({ id: x.globexCupMatch }), expect: 'OK', check: (d, x) => expect(d.id).toBe(x.globexCupMatch) },
  { op: 'match', as: 'reseller', h: { 'x-app-path': 'demo' },
    why: 'a shared match in Demo Corp shows no Initech prediction', doc: Q.match,
    vars: (x) => ({ id: x.demoCupFinishedMatch }), expect: 'OK', check: onlyDemoEmails },
  ...resellerToInitech({
    op: 'match', why: 'a shared match', doc: Q.match, vars: (x) => ({ id: x.demoCupFinishedMatch }),
  }),
  { op: 'match', as: 'globexPlayer', why: 'a shared match shows no Demo Corp prediction', doc: Q.match,
    vars: (x) => ({ id: x.demoCupFinishedMatch }), expect: 'OK',
    check: (d) => expect(emails(d).every((e) => e.endsWith('@globex.test'))).toBe(true) },

  { op: 'matches', as: 'player', why: "the tenant's matches from now on, not Globex's custom match", doc: Q.matches,
    vars: () => ({}), expect: 'OK',
    check: (d, x) => {
      const ids = d.map((m: { id: number }) => m.id);
      expect(ids).toContain(x.demoCupOpenMatch);
      expect(ids).not.toContain(x.globexCupMatch);
    } },
  { op: 'matches', as: 'player', why: "Globex's custom tournament", doc: Q.matches, vars: (x) => ({ t: x.globexCup }),
    expect: NF },
  { op: 'matches', as: 'admin', why: "Globex's custom tournament", doc: Q.matches, vars: (x) => ({ t: x.globexCup }),
    expect: NF },
  { op: 'matches', as: 'anon', why: 'a signed-in caller only', doc: Q.matches, vars: () => ({}), expect: UN },
  ...switchingToGlobex({ op: 'matches', why: 'matches', doc: Q.matches, vars: () => ({}) }),
  { op: 'matches', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's custom match",
    doc: Q.matches, vars: (x) => ({ t: x.globexCup }), expect: 'OK',
    check: (d, x) => expect(d.map((m: { id: number }) => m.id)).toEqual([x.globexCupMatch]) },
  ...resellerToInitech({ op: 'matches', why: 'matches', doc: Q.matches, vars: () => ({}) }),
  { op: 'matches', as: 'globexPlayer', why: "Globex's own custom match, no Demo Corp prediction", doc: Q.matches,
    vars: () => ({}), expect: 'OK',
    check: (d, x) => expect(d.map((m: { id: number }) => m.id)).toContain(x.globexCupMatch) },

  { op: 'myPredictions', as: 'player', why: 'only the own predictions', doc: Q.myPredictions, vars: () => ({}),
    expect: 'OK',
    check: (d) => {
      expect(d.length).toBeGreaterThan(0);
      for (const p of d) expect(p.user.email).toBe('player1@demo.test');
      onlyDemoEmails(d);
    } },
  { op: 'myPredictions', as: 'player', why: "Globex's custom tournament", doc: Q.myPredictions,
    vars: (x) => ({ t: x.globexCup }), expect: NF },
  { op: 'myPredictions', as: 'anon', why: 'a signed-in caller only', doc: Q.myPredictions, vars: () => ({}),
    expect: UN },
  ...switchingToGlobex({ op: 'myPredictions', why: 'predictions', doc: Q.myPredictions, vars: () => ({}) }),
  { op: 'myPredictions', as: 'reseller', h: { 'x-app-company': 'GLOBEX' },
    why: "acting on Globex shows none of Globex's players' predictions", doc: Q.myPredictions, vars: () => ({}),
    expect: 'OK', check: (d) => expect(d).toEqual([]) },
  ...resellerToInitech({ op: 'myPredictions', why: 'predictions', doc: Q.myPredictions, vars: () => ({}) }),
  { op: 'myPredictions', as: 'globexPlayer', why: 'only their own, with the custom match', doc: Q.myPredictions,
    vars: () => ({}), expect: 'OK',
    check: (d, x) => {
      for (const p of d) expect(p.user.email).toBe('player1@globex.test');
      expect(d.map((p: { match: { id: number } }) => p.match.id)).toContain(x.globexCupMatch);
    } },

  {
    op: 'me', as: 'player', why: 'the caller, with predictions of shared matches, shows no other company', doc: Q.me,
    expect: 'OK',
    check: (d) => {
      expect(d.email).toBe('player1@demo.test');
      expect(d.recoverPasswordToken).toBeNull();
      onlyDemoEmails(d);
    },
  },
  ...switchingToGlobex({ op: 'me', why: 'the caller', doc: Q.me, expect: ['OK', FB], check: (d) => onlyDemoEmails(d) }),
  { op: 'me', as: 'anon', h: (x) => bearer(x.jwt.linkAsAccess),
    why: "an invitation token (subject = Globex admin's id) is not a credential", doc: Q.me, expect: UN },
  { op: 'me', as: 'anon', h: (x) => bearer(x.jwt.crossClaims), why: "a token of Globex's admin claiming Demo Corp",
    doc: Q.me, expect: UN },
  ...resellerToInitech({ op: 'me', why: 'the caller', doc: Q.me, expect: ['OK', FB] }),

  { op: 'myInternalRankingInvitations', as: 'player', why: "none of Globex's league invitations",
    doc: Q.myInternalRankingInvitations, expect: 'OK', check: (d) => expect(d).toEqual([]) },
  ...switchingToGlobex({
    op: 'myInternalRankingInvitations', why: 'league invitations', doc: Q.myInternalRankingInvitations,
  }),
  ...resellerToInitech({
    op: 'myInternalRankingInvitations', why: 'league invitations', doc: Q.myInternalRankingInvitations,
  }),

  { op: 'myInternalRankings', as: 'player', why: 'only the own league', doc: Q.myInternalRankings, expect: 'OK',
    check: (d) => expect(names(d)).toEqual(['Demo League']) },
  ...switchingToGlobex({ op: 'myInternalRankings', why: 'leagues', doc: Q.myInternalRankings }),
  ...resellerToInitech({ op: 'myInternalRankings', why: 'leagues', doc: Q.myInternalRankings }),

  {
    op: 'myNotifications', as: 'player', why: 'only the own notifications', doc: Q.myNotifications, expect: 'OK',
    check: async (d, x, p) => {
      expect(d.map((n: { payload: { note: string } }) => n.payload.note)).toContain('Demo note');
      const own = await p.notification.findMany({ where: { userId: x.demoPlayer1 }, select: { id: true } });
      expect(d.map((n: { id: number }) => n.id).sort()).toEqual(own.map((n) => n.id).sort());
    },
  },
  ...switchingToGlobex({ op: 'myNotifications', why: 'notifications', doc: Q.myNotifications, expect: ['OK', FB] }),
  ...resellerToInitech({ op: 'myNotifications', why: 'notifications', doc: Q.myNotifications, expect: ['OK', FB] }),

  { op: 'myTournaments', as: 'player', why: "not Globex's custom tournament, no Globex prediction",
    doc: Q.myTournaments, expect: 'OK',
    check: (d) => { expect(names(d)).toEqual(['Prode Demo Cup']); onlyDemoEmails(d); } },
  ...switchingToGlobex({ op: 'myTournaments', why: 'tournaments', doc: Q.myTournaments }),
  {
    op: 'myTournaments', as: 'reseller', h: { 'x-app-host': 'prode.globex.test' }, why: "reaches Globex's tournaments",
    doc: Q.myTournaments, expect: 'OK', check: (d) => expect(names(d)).toEqual(['Globex Office Cup', 'Prode Demo Cup']),
  },
  { op: 'myTournaments', as: 'reseller', h: { 'x-app-path': 'demo' }, why: "Demo Corp's tournaments, without Globex's",
    doc: Q.myTournaments, expect: 'OK', forbid: ['globex', 'initech', 'hooli'],
    check: (d) => expect(names(d)).toEqual(['Prode Demo Cup']) },
  ...resellerToInitech({ op: 'myTournaments', why: 'tournaments', doc: Q.myTournaments }),

  { op: 'post', as: 'player', why: "Globex's post by id", doc: Q.post, vars: gPost, expect: NF },
  { op: 'post', as: 'admin', why: "Globex's post by id", doc: RestPostDocument, vars: gPost, expect: NF },
  ...switchingToGlobex({ op: 'post', why: "Globex's post", doc: Q.post, vars: gPost }),
  { op: 'post', as: 'player', why: 'an own post, deep, shows no other company', doc: Q.post,
    vars: (x) => ({ id: x.demoPost }), expect: 'OK', check: onlyDemoEmails },
  { op: 'post', as: 'globexPlayer', why: "Demo Corp's post by id", doc: Q.post, vars: (x) => ({ id: x.demoPost }),
    expect: NF },
  { op: 'post', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's post", doc: Q.post,
    vars: gPost, expect: 'OK', check: (d, x) => expect(d.id).toBe(x.globexPost) },
  { op: 'post', as: 'reseller', why: "Initech's post from its own company", doc: Q.post,
    vars: (x) => ({ id: x.initechPost }), expect: NF },
  { op: 'post', as: 'reseller', h: { 'x-app-company': 'DEMO' }, why: "Initech's post while acting on Demo Corp",
    doc: Q.post, vars: (x) => ({ id: x.initechPost }), expect: NF },
  ...resellerToInitech({ op: 'post', why: "Initech's post", doc: Q.post, vars: (x) => ({ id: x.initechPost }) }),

  { op: 'postComments', as: 'player', why: "Globex's post's comments", doc: Q.postComments,
    vars: (x) => ({ postId: x.globexPost }), expect: NF },
  { op: 'postComments', as: 'admin', why: "Globex's post's comments", doc: RestPostCommentsDocument,
    vars: (x) => ({ postId: x.globexPost }), expect: NF },
  ...switchingToGlobex({
    op: 'postComments', why: "Globex's comments", doc: Q.postComments, vars: (x) => ({ postId: x.globexPost }),
  }),
  { op: 'postComments', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's comments",
    doc: Q.postComments, vars: (x) => ({ postId: x.globexPost }), expect: 'OK',
    check: (d) => expect(d.length).toBeGreaterThan(0) },
  { op: 'postComments', as: 'reseller', h: { 'x-app-path': 'demo' }, why: "Initech's comments", doc: Q.postComments,
    vars: (x) => ({ postId: x.initechPost }), expect: NF },
  ...resellerToInitech({
    op: 'postComments', why: "Initech's comments", doc: Q.postComments, vars: (x) => ({ postId: x.initechPost }),
  }),

  { op: 'ranking', as: 'admin', why: 'the shared tournament ranks only Demo Corp users', doc: Q.ranking,
    vars: (x) => ({ t: x.demoCup }), expect: 'OK',
    check: (d) => { expect(d.total).toBe(21); onlyRanked(d, /^(Demo Player \d+|Dana Admin)$/); } },
  { op: 'ranking', as: 'player', why: "Globex's custom tournament", doc: Q.ranking, vars: (x) => ({ t: x.globexCup }),
    expect: NF },
  { op: 'ranking', as: 'admin', why: "an area of Globex", doc: Q.ranking,
    vars: (x) => ({ t: x.demoCup, area: x.globexArea }), expect: NF },
  { op: 'ranking', as: 'player', why: "Globex's private league", doc: Q.ranking,
    vars: (x) => ({ t: x.demoCup, league: x.globexLeague }), expect: NF },
  { op: 'ranking', as: 'admin', why: "a round of Globex's custom tournament", doc: Q.ranking,
    vars: (x) => ({ t: x.demoCup, round: x.globexCupRound }), expect: 'BAD_USER_INPUT' },
  ...switchingToGlobex({
    op: 'ranking', why: 'the shared tournament', doc: Q.ranking, vars: (x) => ({ t: x.demoCup }),
  }),
  {
    op: 'ranking', as: 'globexPlayer', why: 'the shared tournament ranks only Globex users', doc: Q.ranking,
    vars: (x) => ({ t: x.demoCup }), expect: 'OK',
    check: (d) => {
      expect(d.total).toBeGreaterThanOrEqual(11);
      onlyRanked(d, /^(Globex Player \d+|Gus Admin|Isolation Tester)$/);
    },
  },
  {
    op: 'ranking', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: 'reaches the Globex ranking', doc: Q.ranking,
    vars: (x) => ({ t: x.globexCup }), expect: 'OK',
    check: (d) => {
      expect(d.total).toBeGreaterThanOrEqual(11);
      onlyRanked(d, /^(Globex Player \d+|Gus Admin|Isolation Tester)$/);
    },
  },
  { op: 'ranking', as: 'reseller', h: { 'x-app-path': 'demo' }, why: 'an area of Initech', doc: Q.ranking,
    vars: (x) => ({ t: x.demoCup, area: x.initechArea }), expect: NF },
  ...resellerToInitech({
    op: 'ranking', why: 'the shared tournament', doc: Q.ranking, vars: (x) => ({ t: x.demoCup }),
  }),

  { op: 'auditLog', as: 'player', why: 'players read no audit log', doc: Q.auditLog, expect: FB },
  { op: 'auditLog', as: 'globexPlayer', why: 'players read no audit log', doc: Q.auditLog, expect: FB },
  { op: 'auditLog', as: 'anon', why: 'nobody unknown reads one', doc: Q.auditLog, expect: UN },
  { op: 'auditLog', as: 'admin', why: "Demo Corp's entries only", doc: Q.auditLog, expect: 'OK',
    check: (d) => expect(d.entries.map((e: { reason: string }) => e.reason)).toEqual(['Demo Corp correction']) },
  { op: 'auditLog', as: 'admin', why: "a Globex player's entries are not Demo Corp's", doc: Q.auditLog,
    vars: (x) => ({ u: x.globexPlayer1 }), expect: 'OK', check: (d) => expect(d).toEqual({ total: 0, entries: [] }) },
  ...switchingToGlobex({ op: 'auditLog', why: "Globex's log", doc: Q.auditLog }),
  { op: 'auditLog', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reads a managed company's log",
    doc: Q.auditLog, expect: 'OK', forbid: ['demo', 'initech', 'hooli'],
    check: (d) => expect(d.entries.map((e: { reason: string }) => e.reason)).toEqual(['Globex correction']) },
  ...resellerToInitech({ op: 'auditLog', why: "Initech's log", doc: Q.auditLog }),

  { op: 'tournament', as: 'player', why: "Globex's custom tournament", doc: Q.tournament,
    vars: (x) => ({ id: x.globexCup }), expect: NF },
  { op: 'tournament', as: 'admin', why: "Globex's custom tournament", doc: Q.tournament,
    vars: (x) => ({ id: x.globexCup }), expect: NF },
  ...switchingToGlobex({
    op: 'tournament', why: "Globex's custom tournament", doc: Q.tournament, vars: (x) => ({ id: x.globexCup }),
  }),
  { op: 'tournament', as: 'player', why: 'the shared tournament shows no Globex team, tournament or prediction',
    doc: Q.tournament, vars: (x) => ({ id: x.demoCup }), expect: 'OK', check: onlyDemoEmails },
  { op: 'tournament', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's custom tournament",
    doc: Q.tournament, vars: (x) => ({ id: x.globexCup }), expect: 'OK',
    check: (d) => expect(d.name).toBe('Globex Office Cup') },
  ...resellerToInitech({
    op: 'tournament', why: 'the shared tournament', doc: Q.tournament, vars: (x) => ({ id: x.demoCup }),
  }),

  { op: 'roundWinners', as: 'player', why: 'the shared tournament names only Demo Corp winners', doc: Q.roundWinners,
    vars: (x) => ({ t: x.demoCup }), expect: 'OK', check: (d) => onlyWinners(d, /^(Demo Player \d+|Dana Admin)$/, 21) },
  { op: 'roundWinners', as: 'player', why: "Globex's custom tournament", doc: Q.roundWinners,
    vars: (x) => ({ t: x.globexCup }), expect: NF },
  ...switchingToGlobex({
    op: 'roundWinners', why: 'the shared tournament', doc: Q.roundWinners, vars: (x) => ({ t: x.demoCup }),
  }),
  { op: 'roundWinners', as: 'globexPlayer', why: 'the shared tournament names only Globex winners',
    doc: Q.roundWinners, vars: (x) => ({ t: x.demoCup }), expect: 'OK',
    check: (d) => onlyWinners(d, /^(Globex Player \d+|Gus Admin|Isolation Tester)$/, 15) },
  ...resellerToInitech({
    op: 'roundWinners', why: 'the shared tournament', doc: Q.roundWinners, vars: (x) => ({ t: x.demoCup }),
  }),
  { op: 'seasons', as: 'player', why: "lists the own company's seasons only", doc: Q.seasons, expect: 'OK',
    check: (d) => expect(names(d)).toEqual(['Isolation Season']) },
  { op: 'seasons', as: 'globexPlayer', why: "lists Globex's seasons only", doc: Q.seasons, expect: 'OK',
    check: (d) => expect(names(d)).toEqual(['Globex Season']), forbid: ['demo', 'initech', 'hooli'] },
  ...switchingToGlobex({ op: 'seasons', why: "Globex's seasons", doc: Q.seasons }),
  ...resellerToInitech({ op: 'seasons', why: "Initech's seasons", doc: Q.seasons }),

  { op: 'seasonRanking', as: 'player', why: "the own season ranks only Demo Corp users", doc: Q.seasonRanking,
    vars: (x) => ({ s: x.demoSeason }), expect: 'OK',
    check: (d) => { expect(d.total).toBe(21); onlyRanked(d, /^(Demo Player \d+|Dana Admin)$/); } },
  { op: 'seasonRanking', as: 'player', why: "Globex's season", doc: Q.seasonRanking,
    vars: (x) => ({ s: x.globexSeason }), expect: NF },
  { op: 'seasonRanking', as: 'admin', why: "Globex's season", doc: Q.seasonRanking,
    vars: (x) => ({ s: x.globexSeason }), expect: NF },
  { op: 'seasonRanking', as: 'globexPlayer', why: "Demo Corp's season", doc: Q.seasonRanking,
    vars: (x) => ({ s: x.demoSeason }), expect: NF },
  ...switchingToGlobex({ op: 'seasonRanking', why: "Globex's season", doc: Q.seasonRanking,
    vars: (x) => ({ s: x.globexSeason }) }),
  { op: 'seasonRanking', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's season",
    doc: Q.seasonRanking, vars: (x) => ({ s: x.globexSeason }), expect: 'OK',
    check: (d) => onlyRanked(d, /^(Globex Player \d+|Gus Admin|Isolation Tester)$/) },
  ...resellerToInitech({ op: 'seasonRanking', why: "Demo Corp's season", doc: Q.seasonRanking,
    vars: (x) => ({ s: x.demoSeason }) }),

  { op: 'areaRanking', as: 'player', why: "Globex's custom tournament", doc: Q.areaRanking,
    vars: (x) => ({ t: x.globexCup }), expect: NF },
  { op: 'areaRanking', as: 'admin', why: 'the shared tournament ranks only Demo Corp areas', doc: Q.areaRanking,
    vars: (x) => ({ t: x.demoCup }), expect: 'OK',
    check: (d) => expect(d.entries.every((e: { area: { level: number } }) => e.area.level === 1)).toBe(true) },
  ...switchingToGlobex({ op: 'areaRanking', why: 'the shared tournament', doc: Q.areaRanking,
    vars: (x) => ({ t: x.demoCup }) }),
  { op: 'areaRanking', as: 'reseller', h: { 'x-app-company': 'GLOBEX' }, why: "reaches Globex's areas",
    doc: Q.areaRanking, vars: (x) => ({ t: x.demoCup }), expect: 'OK',
    check: (d) => expect(names(d.entries.map((e: { area: { name: string } }) => e.area))).toEqual(['Headquarters']) },
  ...resellerToInitech({ op: 'areaRanking', why: 'the shared tournament', doc: Q.areaRanking,
    vars: (x) => ({ t: x.demoCup }) }),
];

/** Round winners of one company only, and match statistics counting no more predictions than it has people. */
function onlyWinners(
  rounds: Array<{
    round: { matches: Array<{ statistics: { predictions: number } | null }> };
    winners: Array<{ name: string } | null>;
  }>,
  pattern: RegExp,
  people: number,
) {
  expect(rounds.length).toBeGreaterThan(0);
  for (const r of rounds) {
    for (const w of r.winners) expect(w?.name, 'a winner of another company').toMatch(pattern);
    for (const m of r.round.matches) expect(m.statistics?.predictions ?? 0).toBeLessThanOrEqual(people);
  }
}
