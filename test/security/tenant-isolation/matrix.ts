// Tenant isolation, as a matrix: every root Query and Mutation field of schema.graphql and every REST route
// (GET /openapi.json), driven over real HTTP with real JWTs, proves that
//   1. a player and an admin of Demo Corp (A) neither see nor change Globex's (B) data: B's records by id return
//      NOT_FOUND (FORBIDDEN where docs/security.md says so), never any of B's data; writes aimed at B are refused
//      and the database rows are unchanged; naming B with x-app-path / x-app-host / x-app-company is refused;
//   2. the reseller (Channel Partners, managing Demo Corp and Globex) reaches those two and no other company:
//      Initech and Hooli, created by fixture.ts and managed by another reseller (Umbrella), stay out of reach by
//      every header and every id;
//   3. no response of the matrix carries a password hash, a recoverPasswordToken, a skipLoginToken or the JWT secret.
//
// One case per request, in query-cases.ts, mutation-cases.ts and rest-cases.ts. A case names the operation (the
// schema field, or "METHOD /route"), who calls, the headers, and what must come back; `unchanged` snapshots the
// rows a refused write must not touch. This module holds what the cases are written with; run-matrix.ts runs them,
// one test file per face, and completeness.test.ts fails when a schema field or a REST route has no case.
import type { DocumentNode } from 'graphql';
import { expect } from 'vitest';
import type { TestServer } from '../../helpers/app.ts';
import type { Ids } from './fixture.ts';

import type { LiveEvent } from '../../../src/live/events.ts';

export type Actor = 'anon' | 'player' | 'admin' | 'reseller' | 'globexPlayer';
export type Headers = Record<string, string>;
/** REDIRECT and PAGE: the sign-in routes a browser is sent to answer a redirect (data: its Location) or a page. */
export type Outcome = 'OK' | 'NOT_FOUND' | 'FORBIDDEN' | 'UNAUTHENTICATED' | 'BAD_USER_INPUT' | 'REDIRECT' | 'PAGE';
export type Db = TestServer['t']['db']['prisma'];

export interface Case {
  /** The schema root field, or the REST route as "METHOD /path/:param". */
  op: string;
  as: Actor;
  why: string;
  h?: Headers | ((x: Ids) => Headers);
  doc?: string | DocumentNode;
  vars?: (x: Ids) => Record<string, unknown>;
  rest?: { method: 'GET' | 'PATCH' | 'POST'; path: (x: Ids) => string; body?: (x: Ids) => unknown };
  /** Acceptable responses: one, or several where the docs leave the choice (a header a tenant-free operation ignores).
   */
  expect: Outcome | Outcome[];
  /** Runs on an OK response with the operation's data. */
  check?: (data: any, x: Ids, p: Db) => void | Promise<void>;
  /** Rows the request must not change: read before and after. */
  unchanged?: (p: Db, x: Ids) => Promise<unknown>;
  /**
   * Subscriptions only: the event published once the server holds the subscription (an id, as replicas send it).
   * A subscription row checks its first result: the refusal, or what that event shows the caller.
   */
  event?: (x: Ids, p: Db, as: Actor) => Promise<LiveEvent>;
  /** Companies none of whose data may appear in the response; by default every company the caller may not reach. */
  forbid?: Array<keyof typeof MARKERS>;
}

/** Strings that only a company's own data contains (names, e-mails, texts created for this test). */
export const MARKERS = {
  demo: /demo corp|@demo\.test|dana admin|demo player|new hire|demo league|demo note/i,
  globex: /globex|gus admin|headquarters|mine too\./i,
  initech: /initech|umbrella/i,
  /** Another company of Initech's reseller: nobody in the matrix may reach it. */
  hooli: /hooli/i,
};
export const DEFAULT_FORBID: Record<Actor, Array<keyof typeof MARKERS>> = {
  anon: ['demo', 'globex', 'initech', 'hooli'],
  player: ['globex', 'initech', 'hooli'],
  admin: ['globex', 'initech', 'hooli'],
  reseller: ['initech', 'hooli'],
  globexPlayer: ['demo', 'initech', 'hooli'],
};

const byId = { orderBy: { id: 'asc' as const } };
/** Everything a refused write could have touched (small tables, read whole). */
export const SNAP = {
  community: (p: Db) =>
    Promise.all([
      p.post.findMany(byId),
      p.postComment.findMany(byId),
      p.postLike.findMany(byId),
      p.postCommentLike.findMany(byId),
    ]),
  invitations: (p: Db) => p.invitation.findMany(byId),
  game: (p: Db, x: Ids) =>
    Promise.all([
      p.match.findMany({
        where: { id: { in: [x.globexCupMatch, x.demoCupOpenMatch, x.demoCupFinishedMatch] } },
        ...byId,
      }),
      p.prediction.findMany({
        where: {
          OR: [
            { matchId: { in: [x.globexCupMatch, x.demoCupOpenMatch] } },
            { userId: { in: [x.demoPlayer1, x.demoAdmin] } },
          ],
        },
        ...byId,
      }),
      p.dreamFinalPick.findMany(byId),
      p.tournamentStanding.findMany({
        where: { tournamentId: { in: [x.globexCup, x.demoCup] } },
        orderBy: [{ tournamentId: 'asc' }, { userId: 'asc' }],
      }),
    ]),
  leagues: (p: Db) =>
    Promise.all([
      p.internalRanking.findMany(byId),
      p.internalRankingMembership.findMany(byId),
      p.internalRankingInvitation.findMany(byId),
    ]),
  notifications: (p: Db) => p.notification.findMany(byId),
  /** A correction writes a prediction, its points, the audit entry and the player's notification. */
  corrections: (p: Db, x: Ids) =>
    Promise.all([SNAP.game(p, x), p.auditEntry.findMany(byId), p.notification.findMany(byId)]),
  seasons: (p: Db) =>
    Promise.all([
      p.season.findMany(byId),
      p.seasonTournament.findMany({ orderBy: [{ seasonId: 'asc' }, { tournamentId: 'asc' }] }),
    ]),
  users: (p: Db) =>
    p.user.findMany({
      ...byId,
      select: { id: true, companyId: true, email: true, loginCount: true, lastActiveDate: true, deletedAt: true },
    }),
};

/** Every way a caller can name Globex instead of their own company. */
const TO_GLOBEX: Array<(x: Ids) => Headers> = [
  () => ({ 'x-app-path': 'globex' }),
  () => ({ 'x-app-host': 'prode.globex.test' }),
  () => ({ 'x-app-company': 'GLOBEX' }),
  (x) => ({ 'x-app-company': String(x.globex) }),
];
/** Every way the reseller can name Initech, which it does not manage. */
const TO_INITECH: Array<(x: Ids) => Headers> = [
  () => ({ 'x-app-path': 'initech' }),
  () => ({ 'x-app-host': 'prode.initech.test' }),
  () => ({ 'x-app-company': 'INITECH' }),
  (x) => ({ 'x-app-company': String(x.initech) }),
];

type Base = Omit<Case, 'as' | 'h' | 'expect'> & { expect?: Case['expect'] };
/** A Demo Corp player and admin naming Globex by each header: FORBIDDEN unless the operation says otherwise. */
export const switchingToGlobex = (c: Base): Case[] =>
  (['player', 'admin'] as const).flatMap((as) =>
    TO_GLOBEX.map((h) => ({ expect: 'FORBIDDEN' as const, ...c, as, h, why: `${c.why}, naming Globex by header` })),
  );
/** The reseller naming Initech by each header. */
export const resellerToInitech = (c: Base): Case[] =>
  TO_INITECH.map((h) => ({
    expect: 'FORBIDDEN' as const,
    ...c,
    as: 'reseller' as const,
    h,
    why: `${c.why}, naming Initech by header`,
  }));

export const NF = 'NOT_FOUND' as const;
export const FB = 'FORBIDDEN' as const;
export const UN = 'UNAUTHENTICATED' as const;
export const names = (list: Array<{ name: string }>) => list.map((c) => c.name).sort();
export const emails = (text: unknown) => [...JSON.stringify(text).matchAll(/"email":"([^"]+)"/g)].map((m) => m[1]);
export const onlyDemoEmails = (data: unknown) => {
  const found = emails(data);
  expect(found.length).toBeGreaterThan(0);
  for (const e of found) expect(e, 'an e-mail of another company').toMatch(/@demo\.test$/);
};
/** A ranking's entries name only users of the expected company (ranking users carry no e-mail). */
export const onlyRanked = (data: { entries: Array<{ user: { name: string } | null }> }, pattern: RegExp) => {
  expect(data.entries.length).toBeGreaterThan(0);
  for (const e of data.entries) expect(e.user?.name, 'a ranked user of another company').toMatch(pattern);
};
export const gPost = (x: Ids) => ({ id: x.globexPost });
export const gComment = (x: Ids) => ({ id: x.globexComment });
