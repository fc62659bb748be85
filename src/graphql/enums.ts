// Every GraphQL enum of the API. Stored vocabularies come from the Prisma schema; the rest are spec values.
import { registerEnumType } from 'type-graphql';
import {
  AuditKind,
  ExtraFieldType,
  LoginProviderName,
  MatchStatus,
  NotificationType,
  PasswordPolicy,
  PenaltiesWinner,
  PredictionStatus,
  PurchasedPlan,
  Role,
} from '../db/enums.ts';

export {
  AuditKind,
  ExtraFieldType,
  LoginProviderName,
  MatchStatus,
  NotificationType,
  PasswordPolicy,
  PenaltiesWinner,
  PredictionStatus,
  PurchasedPlan,
  Role,
};

export const BannerType = { superior: 'superior', middle: 'middle', side: 'side' } as const;
export const DisplayAuthorType = { user: 'user', company: 'company' } as const;
export const PostAllowedContent = { textOnly: 'textOnly', textAndImage: 'textAndImage' } as const;
export const TriviaWindow = { UPCOMING: 'UPCOMING', OPEN: 'OPEN', CLOSED: 'CLOSED' } as const;
export const VisibleAreaRankings = { none: 'none', all: 'all', own: 'own' } as const;

registerEnumType(Role, {
  name: 'Role',
  description: 'Ranked player < admin < reseller < manager.',
  valuesConfig: {
    player: { description: 'Plays: predicts, posts, answers trivia.' },
    admin: { description: 'Administers their own company: people, settings, content.' },
    reseller: { description: 'Administers their own company and the companies it manages.' },
    manager: { description: 'Runs the platform: every company, global tournaments and results.' },
  },
});
registerEnumType(PurchasedPlan, {
  name: 'PurchasedPlan',
  description: 'The plan a company bought.',
  valuesConfig: { full: { description: 'Every feature.' }, lite: { description: 'The reduced plan.' } },
});
registerEnumType(PasswordPolicy, {
  name: 'PasswordPolicy',
  description: "What a company's passwords must meet (at most 128 characters in every policy).",
  valuesConfig: {
    base: { description: 'At least 8 characters.' },
    strong: { description: 'At least 10 characters, mixing lower and upper case letters, digits and symbols.' },
    nist: { description: 'At least 8 characters, not a common password, not one character repeated (NIST 800-63B).' },
  },
});
registerEnumType(PenaltiesWinner, {
  name: 'PenaltiesWinner',
  description: 'The side that wins a penalty shoot-out.',
  valuesConfig: { home: { description: 'The home team.' }, away: { description: 'The away team.' } },
});
registerEnumType(LoginProviderName, {
  name: 'LoginProviderName',
  description: 'A single sign-on provider.',
  valuesConfig: { google: { description: 'Sign in with Google.' } },
});
registerEnumType(MatchStatus, {
  name: 'MatchStatus',
  description: "football-data.org's match status vocabulary.",
  valuesConfig: {
    SCHEDULED: { description: 'Not played yet; kickoff date set, time may change. Takes predictions.' },
    TIMED: { description: 'Not played yet; kickoff time confirmed. Takes predictions.' },
    IN_PLAY: { description: 'Being played (elapsedTime says the minute).' },
    PAUSED: { description: 'At half time or another break.' },
    EXTRA_TIME: { description: 'In extra time.' },
    PENALTY_SHOOTOUT: { description: 'In the penalty shoot-out.' },
    FINISHED: { description: 'Played to the end: predictions are scored.' },
    SUSPENDED: { description: 'Stopped during play, to be resumed or decided later.' },
    POSTPONED: { description: 'Moved to a date not known yet (rescheduleMatch sets it).' },
    CANCELLED: { description: 'Not to be played: its predictions are VOID.' },
    AWARDED: { description: 'Decided off the pitch: the awarded score counts as the result.' },
  },
});
registerEnumType(PredictionStatus, {
  name: 'PredictionStatus',
  description: 'PENDING until scored; SCORED with points; VOID when the match was cancelled.',
  valuesConfig: {
    PENDING: { description: 'The match has no final result yet.' },
    SCORED: { description: 'Points given (see points).' },
    VOID: { description: 'The match was cancelled: no points.' },
  },
});
registerEnumType(ExtraFieldType, {
  name: 'ExtraFieldType',
  description: "The type of an extra field's values.",
  valuesConfig: {
    string: { description: 'Free text.' },
    number: { description: 'A number.' },
    boolean: { description: 'true or false.' },
    email: { description: 'An e-mail address.' },
    date: { description: 'A calendar date like 2026-06-11.' },
    country: { description: 'A country code: one of locationScope.countries when it lists any.' },
    state: { description: 'A state code: one of locationScope.states when it lists any.' },
    city: { description: 'A city name, free text.' },
    select: { description: "One of the choices the field's settings list." },
  },
});
registerEnumType(AuditKind, {
  name: 'AuditKind',
  description: 'What a privileged change in a company was (AuditEntry.kind).',
  valuesConfig: {
    PREDICTION_ENTERED: { description: "A player's prediction entered or corrected for them (setPredictionFor)." },
    RESULT_SET: { description: "A match's result set or corrected (setMatchResult)." },
    SCORING_SETTINGS_CHANGED: { description: "The company's scoring settings changed (updateScoringSettings)." },
    ROLE_CHANGED: { description: "A person's role changed (updateUser)." },
    COMPANY_SETTINGS_CHANGED: { description: "The company's settings changed (updateCompany)." },
    USER_DEACTIVATED: { description: 'A person was deactivated (setUserActive false).' },
    USER_REACTIVATED: { description: 'A person was reactivated (setUserActive true).' },
    USER_DELETED: { description: 'A person was deleted for good (deleteUser).' },
  },
});
registerEnumType(NotificationType, {
  name: 'NotificationType',
  description: 'What a notification is about.',
  valuesConfig: {
    pendingMatchesPredictions: {
      description:
        'Matches the user has not predicted whose predictions close within their reminderHoursBefore (default ' +
        '24): one digest per person, each match named once per closing time.',
    },
    rankingsUpdated: { description: 'Results moved the rankings of a tournament the user plays.' },
    pendingDreamFinalPrediction: { description: 'Dream-final picks close within 48 hours and the user has none.' },
    internalRankingInvitationReceived: { description: 'The user was invited to a private league.' },
    internalRankingInvitationAccepted: { description: "Someone accepted the user's league invitation." },
    internalRankingInvitationRejected: { description: "Someone rejected the user's league invitation." },
    predictionEnteredForYou: {
      description:
        "An admin entered or corrected the user's prediction (setPredictionFor), with a reason; a company cannot " +
        'forbid it.',
    },
  },
});
registerEnumType(BannerType, {
  name: 'BannerType',
  description: 'Where on the page a banner shows.',
  valuesConfig: {
    superior: { description: 'On top.' },
    middle: { description: 'In the middle.' },
    side: { description: 'At the side.' },
  },
});
registerEnumType(DisplayAuthorType, {
  name: 'DisplayAuthorType',
  description: 'Whether a post shows as its author or as the company.',
  valuesConfig: { user: { description: 'As its author.' }, company: { description: 'As the company.' } },
});
registerEnumType(PostAllowedContent, {
  name: 'PostAllowedContent',
  description: 'What posts may carry.',
  valuesConfig: {
    textOnly: { description: 'Text only: imageUrl is refused.' },
    textAndImage: { description: 'Text and an https image.' },
  },
});
registerEnumType(TriviaWindow, {
  name: 'TriviaWindow',
  description: 'A trivia question by the server clock: UPCOMING before startsAt, OPEN until endsAt, then CLOSED.',
  valuesConfig: {
    UPCOMING: { description: 'Before startsAt: no answers yet.' },
    OPEN: { description: 'From startsAt until endsAt: answers taken.' },
    CLOSED: { description: 'From endsAt on: answers graded.' },
  },
});
registerEnumType(VisibleAreaRankings, {
  name: 'VisibleAreaRankings',
  description: 'Which area rankings players see (admins and above see every one).',
  valuesConfig: {
    none: { description: 'None.' },
    all: { description: "Every area's." },
    own: { description: 'Only those of the areas they are placed in.' },
  },
});
