// The e-mail a notification sends when the user keeps e-mail on (notificationSettings.emailEnabled): pure text
// from the notification's type and payload.
import { quoted, unlinked } from '../mail/user-text.ts';
import type { NotificationTypeName } from './outbox.ts';

type Payload = Record<string, unknown>;
// Names in a payload are people's text (teams of a custom tournament, leagues, colleagues): quoted, never a link.
const team = (name: unknown) => (typeof name === 'string' ? name : '');
/** The matches of a pendingMatchesPredictions digest (a reminder queued before digests names one match). */
const digestMatches = (p: Payload): Payload[] =>
  Array.isArray(p.matches) ? p.matches.filter((m): m is Payload => !!m && typeof m === 'object') : [];
const league = (p: Payload) => quoted(typeof p.rankingName === 'string' ? p.rankingName : '');

const TEXTS: Record<NotificationTypeName, (p: Payload) => { subject: string; body: string }> = {
  pendingMatchesPredictions: (p) => {
    const list = digestMatches(p);
    if (list.length <= 1)
      return {
        subject: `Predict ${unlinked(team(p.homeTeam))} - ${unlinked(team(p.awayTeam))} before predictions close`,
        body:
          `Predictions on ${quoted(team(p.homeTeam))} - ${quoted(team(p.awayTeam))} close at ` +
          `${p.closesAt ?? p.kickoff} (UTC) and you have not predicted it yet.`,
      };
    const lines = list.map(
      (m) => `- ${quoted(team(m.homeTeam))} - ${quoted(team(m.awayTeam))}: predictions close at ${m.closesAt} (UTC)`,
    );
    return {
      subject: `${list.length} matches to predict before predictions close`,
      body: `You have not predicted these matches yet:\n${lines.join('\n')}`,
    };
  },
  rankingsUpdated: () => ({
    subject: 'The rankings have changed',
    body: 'A result came in and the rankings were updated: see where you stand.',
  }),
  pendingDreamFinalPrediction: (p) => ({
    subject: 'Your dream-final picks close soon',
    body: `Dream-final picks close at ${p.closesAt} (UTC) and you have not made yours yet.`,
  }),
  internalRankingInvitationReceived: (p) => ({
    subject: 'You are invited to a private league',
    body: `${p.invitedBy ? quoted(String(p.invitedBy)) : 'A colleague'} invited you to the league ${league(p)}.`,
  }),
  internalRankingInvitationAccepted: (p) => ({
    subject: 'Your league invitation was accepted',
    body: `${p.user ? quoted(String(p.user)) : 'Your colleague'} joined the league ${league(p)}.`,
  }),
  internalRankingInvitationRejected: (p) => ({
    subject: 'Your league invitation was declined',
    body: `${p.user ? quoted(String(p.user)) : 'Your colleague'} declined the invitation to ${league(p)}.`,
  }),
  predictionEnteredForYou: (p) => ({
    subject: 'Your prediction was entered for you',
    body:
      `${p.enteredBy ? quoted(String(p.enteredBy)) : 'An organiser'} entered ${p.homeTeamGoals} - ${p.awayTeamGoals} ` +
      `as your prediction of ${quoted(team(p.homeTeam))} - ${quoted(team(p.awayTeam))}, giving as the reason: ` +
      `${quoted(String(p.reason ?? ''))}.`,
  }),
};

export function notificationEmail(type: string, payload: unknown, userName: string): { subject: string; text: string } {
  const make = TEXTS[type as NotificationTypeName];
  const { subject, body } = make
    ? make((payload ?? {}) as Payload)
    : { subject: 'News from your prediction game', body: 'Something happened in your prediction game.' };
  return {
    subject,
    text:
      `Hello ${quoted(userName)},\n\n${body}\n\n` +
      'You receive this because e-mail notifications are on in your settings.\n',
  };
}
