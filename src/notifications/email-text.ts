// The e-mail a notification sends when the user keeps e-mail on (notificationSettings.emailEnabled): pure text
// from the notification's type and payload.
import type { NotificationTypeName } from './outbox.ts';

type Payload = Record<string, unknown>;

const TEXTS: Record<NotificationTypeName, (p: Payload) => { subject: string; body: string }> = {
  pendingMatchesPredictions: (p) => ({
    subject: `Predict ${p.homeTeam} - ${p.awayTeam} before kickoff`,
    body: `${p.homeTeam} - ${p.awayTeam} kicks off at ${p.kickoff} (UTC) and you have not predicted it yet.`,
  }),
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
    body: `${p.invitedBy ?? 'A colleague'} invited you to the league "${p.rankingName ?? ''}".`,
  }),
  internalRankingInvitationAccepted: (p) => ({
    subject: 'Your league invitation was accepted',
    body: `${p.user ?? 'Your colleague'} joined the league "${p.rankingName ?? ''}".`,
  }),
  internalRankingInvitationRejected: (p) => ({
    subject: 'Your league invitation was declined',
    body: `${p.user ?? 'Your colleague'} declined the invitation to "${p.rankingName ?? ''}".`,
  }),
};

export function notificationEmail(type: string, payload: unknown, userName: string): { subject: string; text: string } {
  const make = TEXTS[type as NotificationTypeName];
  const { subject, body } = make
    ? make((payload ?? {}) as Payload)
    : { subject: 'News from your prediction game', body: 'Something happened in your prediction game.' };
  return {
    subject,
    text: `Hello ${userName},\n\n${body}\n\nYou receive this because e-mail notifications are on in your settings.\n`,
  };
}
