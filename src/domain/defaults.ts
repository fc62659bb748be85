// Default values of a new company's JSON settings; the seed and company creation both start from these.
export const DEFAULT_FEATURE_SETTINGS = {
  areas: { minUsersForAreaRanking: 3, selfAssignOnSignUp: false },
  community: { enabled: true, postAllowedContent: 'textAndImage', postAuthorMinRole: 'player' },
  rankings: {
    showGeneralRanking: true,
    showRoundRankings: true,
    showRoundRankingsForAreas: true,
    visibleAreaRankings: 'all',
  },
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
  extraFields: [] as Array<{ name: string; value: string | number | boolean | null }>,
  notificationSettings: { disabledTypes: [] as string[], emailEnabled: true },
};

// Stored JSON is read through these: missing or mistyped keys fall back to the defaults, so the API always
// responds with the full, typed shape the spec requires.
type Json = unknown;
const obj = (v: Json): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const pick = <T>(v: unknown, fallback: T, ok: (x: unknown) => boolean): T => (ok(v) ? (v as T) : fallback);
const isBool = (x: unknown) => typeof x === 'boolean';
const isNum = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
const oneOf =
  (...values: string[]) =>
  (x: unknown) =>
    typeof x === 'string' && values.includes(x);
export const stringArray = (v: Json): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export function featureSettings(stored: Json) {
  const s = obj(stored);
  const d = DEFAULT_FEATURE_SETTINGS;
  const areas = obj(s.areas);
  const community = obj(s.community);
  const rankings = obj(s.rankings);
  return {
    areas: {
      minUsersForAreaRanking: pick(areas.minUsersForAreaRanking, d.areas.minUsersForAreaRanking, isNum),
      selfAssignOnSignUp: pick(areas.selfAssignOnSignUp, d.areas.selfAssignOnSignUp, isBool),
    },
    community: {
      enabled: pick(community.enabled, d.community.enabled, isBool),
      postAllowedContent: pick(
        community.postAllowedContent,
        d.community.postAllowedContent,
        oneOf('textOnly', 'textAndImage'),
      ),
      postAuthorMinRole: pick(
        community.postAuthorMinRole,
        d.community.postAuthorMinRole,
        oneOf('player', 'admin', 'reseller', 'manager'),
      ),
    },
    rankings: {
      showGeneralRanking: pick(rankings.showGeneralRanking, d.rankings.showGeneralRanking, isBool),
      showRoundRankings: pick(rankings.showRoundRankings, d.rankings.showRoundRankings, isBool),
      showRoundRankingsForAreas: pick(rankings.showRoundRankingsForAreas, d.rankings.showRoundRankingsForAreas, isBool),
      visibleAreaRankings: pick(
        rankings.visibleAreaRankings,
        d.rankings.visibleAreaRankings,
        oneOf('none', 'all', 'own'),
      ),
    },
  };
}

export function googleServicesConfig(stored: Json) {
  const s = obj(stored);
  return {
    adSenseClientId: typeof s.adSenseClientId === 'string' ? s.adSenseClientId : null,
    allowSearchEngineIndexing: pick(s.allowSearchEngineIndexing, false, isBool),
    analyticsTrackingId: typeof s.analyticsTrackingId === 'string' ? s.analyticsTrackingId : null,
  };
}

export function purchasedGames(stored: Json) {
  const s = obj(stored);
  return { prode: pick(s.prode, true, isBool), trivia: pick(s.trivia, false, isBool) };
}

/** Hours before predictions close that the pendingMatchesPredictions reminder goes out, and its bounds. */
export const REMINDER_HOURS = { default: 24, min: 1, max: 168 } as const;
export const isReminderHours = (x: unknown) =>
  Number.isInteger(x) && (x as number) >= REMINDER_HOURS.min && (x as number) <= REMINDER_HOURS.max;

export function companyNotificationSettings(stored: Json) {
  const s = obj(stored);
  return {
    forbiddenTypes: stringArray(s.forbiddenTypes),
    reminderHoursBefore: pick(s.reminderHoursBefore, REMINDER_HOURS.default as number, isReminderHours),
  };
}

/** reminderHoursBefore null: the company's default applies. */
export function userNotificationSettings(stored: Json) {
  const s = obj(stored);
  return {
    disabledTypes: stringArray(s.disabledTypes),
    emailEnabled: pick(s.emailEnabled, true, isBool),
    reminderHoursBefore: pick<number | null>(s.reminderHoursBefore, null, isReminderHours),
  };
}

export interface BannerValue {
  type: 'superior' | 'middle' | 'side';
  desktopImageUrl: string | null;
  mobileImageUrl: string | null;
  link: string | null;
}

export function banners(stored: Json): BannerValue[] {
  if (!Array.isArray(stored)) return [];
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return stored
    .map(obj)
    .filter((b) => oneOf('superior', 'middle', 'side')(b.type))
    .map((b) => ({
      type: b.type as BannerValue['type'],
      desktopImageUrl: str(b.desktopImageUrl),
      mobileImageUrl: str(b.mobileImageUrl),
      link: str(b.link),
    }));
}

export function userExtraFields(stored: Json): Array<{ name: string; value: unknown }> {
  if (!Array.isArray(stored)) return [];
  return stored
    .map(obj)
    .filter((f) => typeof f.name === 'string')
    .map((f) => ({ name: f.name as string, value: f.value ?? null }));
}

export const jsonObject = obj;
