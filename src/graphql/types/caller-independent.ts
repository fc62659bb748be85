// The fields that show every caller of one visibility the same (visibilityKey, src/app/scope.ts: the company acted
// on and its settings, own company or not, role): a live event's execution of a document that selects only these
// may be shared by all such callers (src/graphql/subscriptions/documents.ts decides it once per text). A field is
// here only if its resolver and the loaders it calls read nothing of the caller's own (their id, areas, predictions,
// picks, likes, standing) and no clock; any other field, and any field added later, keeps the execution per caller.
// Left out on purpose: Match.predictions (the caller's own, or the tenant's after kickoff by role and names),
// Match.statistics, the whole of rankingChanged (its resolver reads the caller's standing whatever is selected) and
// notificationReceived (the caller's own notifications).

/** Type name to the names of its fields that read nothing of the caller but what visibilityKey covers. */
export const CALLER_INDEPENDENT_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    // The match an event names, after watchMatches' guard on the company acted on.
    Subscription: ['matchUpdated'],
    MatchUpdate: ['match', 'missedEvents', 'cursor'],
    // Rows of the football tables; predictionsCloseAt reads the company's deadline (its settings, in the key).
    Match: [
      'id',
      'date',
      'venue',
      'referee',
      'homeTeamGoals',
      'awayTeamGoals',
      'homeTeamFullTimeGoals',
      'awayTeamFullTimeGoals',
      'homeTeamExtraTimeGoals',
      'awayTeamExtraTimeGoals',
      'homeTeamPenaltyGoals',
      'awayTeamPenaltyGoals',
      'elapsedTime',
      'status',
      'penaltiesWinner',
      'externalId',
      'alreadySentOpenNotification',
      'hasPenalties',
      'isTwoWaysSecondMatch',
      'wasSuspended',
      'homeTeam',
      'awayTeam',
      'round',
      'predictionsCloseAt',
    ],
    Team: ['id', 'name', 'logoUrl', 'externalId', 'country'],
    // teams and tournaments: the global ones of the country (no company's own).
    Country: ['id', 'name', 'alpha2Code', 'flagUrl', 'teams', 'tournaments'],
    Round: ['id', 'name', 'date', 'hasPenalties', 'position', 'externalId', 'matches', 'tournament'],
    Tournament: [
      'id',
      'name',
      'logoUrl',
      'isActive',
      'endDate',
      'hasPenalties',
      'hasTwoWayMatches',
      'importNewMatchesWithPenalties',
      'showNoMoreRoundsWarning',
      'season',
      'externalId',
      'country',
      'rounds',
      'defaultRssFeeds',
    ],
  }).map(([type, fields]) => [type, new Set(fields)]),
);
