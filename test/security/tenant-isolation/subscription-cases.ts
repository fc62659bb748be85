// The matrix's rows for the root Subscription fields, run over WebSocket (run-matrix.ts): each is refused as its
// query is, or responds to the row's event with only what the caller may see.
import { expect } from 'vitest';
import { FB, NF, resellerToInitech, switchingToGlobex, UN, type Case } from './matrix.ts';

const MATCH = `subscription($t: Int!) { matchUpdated(tournamentId: $t) { missedEvents
  match { id homeTeam { name } awayTeam { name } predictions { user { name email } homeTeamGoals } } } }`;
const RANKING = `subscription($t: Int!) { rankingChanged(tournamentId: $t) { tournamentId me { position points } } }`;
const NOTIFICATIONS = `subscription { notificationReceived { notification { id type payload } } }`;

const demoCupMatch: Case['event'] = async (x) => ({
  kind: 'match',
  tournamentId: x.demoCup,
  matchId: x.demoCupFinishedMatch,
});
const globexCupMatch: Case['event'] = async (x) => ({
  kind: 'match',
  tournamentId: x.globexCup,
  matchId: x.globexCupMatch,
});
const demoCupRanking: Case['event'] = async (x) => ({ kind: 'ranking', tournamentId: x.demoCup });
const globexCupRanking: Case['event'] = async (x) => ({ kind: 'ranking', tournamentId: x.globexCup });
/** One of the caller's own notifications (the readers would show no other, whatever the event said). */
const ownNotification: Case['event'] = async (x, p, as) => {
  const userId = as === 'admin' ? x.demoAdmin : x.demoPlayer1;
  const n =
    (await p.notification.findFirst({ where: { userId } })) ??
    (await p.notification.create({
      data: { companyId: x.demo, userId, type: 'rankingsUpdated', payload: {}, dedupeKey: `matrix:${userId}` },
    }));
  return { kind: 'notification', userId, notificationId: n.id };
};

// prettier-ignore
export const SUBSCRIPTION_CASES: Case[] = [
  { op: 'matchUpdated', as: 'anon', why: 'needs a caller', doc: MATCH, vars: (x) => ({ t: x.demoCup }),
    event: demoCupMatch, expect: UN },
  { op: 'matchUpdated', as: 'player', why: 'a tournament of the own company', doc: MATCH,
    vars: (x) => ({ t: x.demoCup }), event: demoCupMatch, expect: 'OK',
    check: (d, x) => expect(d.match.id).toBe(x.demoCupFinishedMatch) },
  { op: 'matchUpdated', as: 'globexPlayer', why: 'the same cup, played by Globex too: only Globex people shown',
    doc: MATCH, vars: (x) => ({ t: x.demoCup }), event: demoCupMatch, expect: 'OK' },
  { op: 'matchUpdated', as: 'player', why: "Globex's custom tournament", doc: MATCH,
    vars: (x) => ({ t: x.globexCup }), event: globexCupMatch, expect: NF },
  { op: 'matchUpdated', as: 'reseller', why: 'a cup its own company does not play', doc: MATCH,
    vars: (x) => ({ t: x.demoCup }), event: demoCupMatch, expect: NF },
  ...switchingToGlobex({ op: 'matchUpdated', why: "Globex's cup", doc: MATCH, vars: (x) => ({ t: x.globexCup }),
    event: globexCupMatch }),
  ...resellerToInitech({ op: 'matchUpdated', why: 'the cup', doc: MATCH, vars: (x) => ({ t: x.demoCup }),
    event: demoCupMatch }),

  { op: 'rankingChanged', as: 'anon', why: 'needs a caller', doc: RANKING, vars: (x) => ({ t: x.demoCup }),
    event: demoCupRanking, expect: UN },
  { op: 'rankingChanged', as: 'player', why: 'the own standing', doc: RANKING, vars: (x) => ({ t: x.demoCup }),
    event: demoCupRanking, expect: 'OK', check: (d, x) => expect(d.tournamentId).toBe(x.demoCup) },
  { op: 'rankingChanged', as: 'player', why: "Globex's custom tournament", doc: RANKING,
    vars: (x) => ({ t: x.globexCup }), event: globexCupRanking, expect: NF },
  ...switchingToGlobex({ op: 'rankingChanged', why: "Globex's cup", doc: RANKING, vars: (x) => ({ t: x.globexCup }),
    event: globexCupRanking }),
  ...resellerToInitech({ op: 'rankingChanged', why: 'the cup', doc: RANKING, vars: (x) => ({ t: x.demoCup }),
    event: demoCupRanking }),

  { op: 'notificationReceived', as: 'anon', why: 'needs a caller', doc: NOTIFICATIONS, event: ownNotification,
    expect: UN },
  { op: 'notificationReceived', as: 'player', why: 'the own notification', doc: NOTIFICATIONS,
    event: ownNotification, expect: 'OK',
    check: async (d, x, p) => {
      const n = await p.notification.findUniqueOrThrow({ where: { id: d.notification.id } });
      expect(n.userId).toBe(x.demoPlayer1);
    } },
  ...switchingToGlobex({ op: 'notificationReceived', why: 'notifications', doc: NOTIFICATIONS,
    event: ownNotification, expect: ['OK', FB] }),
];
