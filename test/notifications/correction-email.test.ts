// The e-mail a player gets when an admin entered their prediction (predictionEnteredForYou): the score, the match
// and the admin's reason, which is people's text and so quoted, on one line and never a link.
import { describe, expect, it } from 'vitest';
import { notificationEmail } from '../../src/notifications/email-text.ts';

describe('predictionEnteredForYou e-mail', () => {
  it('names the score, the match, who entered it and why, with the reason unlinkable', () => {
    const { subject, text } = notificationEmail(
      'predictionEnteredForYou',
      {
        matchId: 7,
        homeTeam: 'Argentina',
        awayTeam: 'Japan',
        homeTeamGoals: 2,
        awayTeamGoals: 1,
        enteredBy: 'Dana Admin',
        reason: 'Sent on paper.\nSee https://evil.example/login',
      },
      'Pat',
    );
    expect(subject).toBe('Your prediction was entered for you');
    expect(text).toContain('"Dana Admin" entered 2 - 1 as your prediction of "Argentina" - "Japan"');
    expect(text).not.toContain('https://');
    expect(text).not.toContain('evil.example');
    expect(text.split('\n').filter((line) => line.includes('Sent on paper'))).toHaveLength(1);
  });
});
