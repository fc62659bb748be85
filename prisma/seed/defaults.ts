// Default values of a new company's JSON settings; the seed and company creation both start from these.
export const DEFAULT_FEATURE_SETTINGS = {
  areas: { minUsersForAreaRanking: 3, selfAssignOnSignUp: false },
  community: { enabled: true, postAllowedContent: 'textAndImage', postAuthorMinRole: 'player' },
  rankings: { showGeneralRanking: true, showRoundRankings: true, showRoundRankingsForAreas: true, visibleAreaRankings: 'all' },
};

export const DEFAULT_COMPANY_JSON = {
  combinedRoundsRankingDefinitions: [] as string[],
  customColors: { primary: '#0b5fff', secondary: '#00c2a8' },
  featureSettings: DEFAULT_FEATURE_SETTINGS,
  googleServicesConfig: { allowSearchEngineIndexing: false },
  notificationSettings: { forbiddenTypes: [] as string[] },
  purchasedGames: { prode: true, trivia: false },
  supportedLanguages: ['es', 'en', 'pt'],
  theme: { mode: 'light' },
};

export const DEFAULT_USER_JSON = {
  extraFields: [] as Array<{ name: string; value: unknown }>,
  notificationSettings: { disabledTypes: [] as string[], emailEnabled: true },
};
