// A company's settings as operators and admins change them (spec 2.4, 2.6): who may change each one, and what a
// valid value is. Pure: the application layer (src/app/company-admin.ts) reads the company, asks here, and writes.
import {
  companyNotificationSettings,
  isReminderHours,
  REMINDER_HOURS,
  featureSettings as storedFeatureSettings,
  googleServicesConfig as storedGoogleServicesConfig,
  jsonObject,
  purchasedGames as storedPurchasedGames,
} from './defaults.ts';
import { EMAIL_ADDRESS, isHttpUrl } from './inputs.ts';

/**
 * Who may change a setting. admin: the company's own admins (and its reseller, and managers): its look and game
 * options. reseller: the reseller managing the company, and managers: its plan, limits, domains and identity.
 * manager: managers only: whether it resells, and who manages it.
 */
export type SettingAuthority = 'admin' | 'reseller' | 'manager';

type Check = (value: unknown, current: Record<string, unknown>) => { value: unknown } | { problem: string };

const ok = (value: unknown) => ({ value });
const bad = (problem: string) => ({ problem });

const bool: Check = (v) => (typeof v === 'boolean' ? ok(v) : bad('must be true or false'));
const text =
  (max: number, nullable = true): Check =>
  (v) => {
    if (v === null) return nullable ? ok(null) : bad('must not be null');
    if (typeof v !== 'string') return bad('must be a string');
    const t = v.trim();
    if (!t) return nullable ? ok(null) : bad('must not be empty');
    return t.length <= max ? ok(t) : bad(`must be at most ${max} characters`);
  };
const url: Check = (v) => {
  if (v === null || v === '') return ok(null);
  if (typeof v !== 'string' || !isHttpUrl(v.trim())) return bad('must be an http(s) URL');
  return ok(v.trim());
};
const oneOf =
  (values: readonly string[], nullable = false): Check =>
  (v) =>
    (v === null && nullable) || (typeof v === 'string' && values.includes(v))
      ? ok(v)
      : bad(`must be one of ${values.join(', ')}${nullable ? ' (or null)' : ''}`);
const int =
  (min: number, max: number, allowed?: number[]): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max && (!allowed || allowed.includes(v))
      ? ok(v)
      : bad(allowed ? `must be one of ${allowed.join(', ')}` : `must be an integer from ${min} to ${max}`);
const pattern =
  (re: RegExp, what: string, nullable: boolean, normalize = (s: string) => s): Check =>
  (v) => {
    if (v === null || v === '') return nullable ? ok(null) : bad('is required');
    if (typeof v !== 'string') return bad('must be a string');
    const s = normalize(v.trim());
    return re.test(s) ? ok(s) : bad(`must be ${what}`);
  };
const stringList =
  (max: number, item: (s: string) => boolean, what: string, nullable = false): Check =>
  (v) => {
    if (v === null) return nullable ? ok(null) : bad('must be a list');
    if (!Array.isArray(v) || v.length > max) return bad(`must be a list of at most ${max} ${what}`);
    const items = v.map((x) => (typeof x === 'string' ? x.trim() : x));
    const wrong = items.find((x) => typeof x !== 'string' || !item(x));
    return wrong === undefined ? ok(items) : bad(`holds ${JSON.stringify(wrong)}, which is not ${what}`);
  };
/** Free-form objects (colors, theme): flat enough to render, small enough to store. */
const smallObject: Check = (v) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return bad('must be an object');
  return JSON.stringify(v).length <= 4096 ? ok(v) : bad('must be at most 4096 bytes of JSON');
};

/** The company's on/off switches of spec 2.4, each a field of its own. */
export const DISABLE_SWITCHES = [
  'disableAreaRankingsMainPageSummary',
  'disableAreas',
  'disableExtraPredictions',
  'disableGoogleLogin',
  'disableInitialTour',
  'disableInternalRankings',
  'disableNews',
  'disableNewsFromHome',
  'disableRankingsMainPageCards',
  'disableRankingsMainPageSummary',
  'disableRankingsTable',
  'disableRankingsUserNames',
  'disableRegister',
  'disableTournamentDetails',
  'disableTrivias',
] as const;

const SEVERITIES = ['info', 'success', 'warning', 'error'] as const;
export const NOTIFICATION_TYPES = [
  'pendingMatchesPredictions',
  'rankingsUpdated',
  'pendingDreamFinalPrediction',
  'internalRankingInvitationReceived',
  'internalRankingInvitationAccepted',
  'internalRankingInvitationRejected',
  'predictionEnteredForYou',
] as const;
/** A company cannot forbid it: a player whose prediction an admin entered or changed is always told. */
const ALWAYS_TOLD = 'predictionEnteredForYou';
export const COMPANY_CODE = /^[A-Za-z0-9_-]{2,40}$/;
export const APP_PATH = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Sub-objects given in part: the rest keeps its stored value, and the whole must be valid. */
function merged(
  read: (stored: unknown) => Record<string, unknown>,
  check: (whole: Record<string, unknown>) => string | null,
  column: string,
): Check {
  return (v, current) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return bad('must be an object');
    const whole = deepMerge(read(current[column]), v as Record<string, unknown>);
    const problem = check(whole);
    return problem ? bad(problem) : ok(whole);
  };
}

function deepMerge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const b = base[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
        ? deepMerge(b as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

function featureSettingsProblem(s: Record<string, unknown>): string | null {
  const at = (path: string) => path.split('.').reduce<unknown>((o, k) => jsonObject(o)[k], s);
  const rules: Array<[string, Check]> = [
    ['areas.minUsersForAreaRanking', int(0, 1_000_000)],
    ['areas.selfAssignOnSignUp', bool],
    ['community.enabled', bool],
    ['community.postAllowedContent', oneOf(['textOnly', 'textAndImage'])],
    ['community.postAuthorMinRole', oneOf(['player', 'admin', 'reseller', 'manager'])],
    ['rankings.showGeneralRanking', bool],
    ['rankings.showRoundRankings', bool],
    ['rankings.showRoundRankingsForAreas', bool],
    ['rankings.visibleAreaRankings', oneOf(['none', 'all', 'own'])],
  ];
  for (const [path, check] of rules) {
    const r = check(at(path), {});
    if ('problem' in r) return `${path} ${r.problem}`;
  }
  const known = new Set(rules.map(([p]) => p));
  for (const [group, values] of Object.entries(s)) {
    for (const key of Object.keys(jsonObject(values))) {
      if (!known.has(`${group}.${key}`)) return `${group}.${key} is not a setting`;
    }
    if (!['areas', 'community', 'rankings'].includes(group)) return `${group} is not a group of settings`;
  }
  return null;
}

const banners: Check = (v) => {
  if (v === null) return ok(null);
  if (!Array.isArray(v) || v.length > 3) return bad('must be a list of at most 3 banners');
  const seen = new Set<string>();
  const out = [];
  for (const b of v as Array<Record<string, unknown>>) {
    const type = oneOf(['superior', 'middle', 'side'])(b?.type, {});
    if ('problem' in type) return bad(`type ${type.problem}`);
    if (seen.has(type.value as string)) return bad(`has two ${type.value} banners`);
    seen.add(type.value as string);
    const banner: Record<string, unknown> = { type: type.value };
    for (const key of ['desktopImageUrl', 'mobileImageUrl', 'link']) {
      const r = url(b[key] ?? null, {});
      if ('problem' in r) return bad(`${type.value}.${key} ${r.problem}`);
      banner[key] = r.value;
    }
    out.push(banner);
  }
  return ok(out);
};

const ROUNDS_DEFINITION = /^(?:[^:,]{1,60}:)?\d+(?:,\d+)*$/;

interface Setting {
  authority: SettingAuthority;
  check: Check;
}

const admin = (check: Check): Setting => ({ authority: 'admin', check });
const reseller = (check: Check): Setting => ({ authority: 'reseller', check });

/** Every setting updateCompany takes, its authority and its check. */
export const COMPANY_SETTINGS: Record<string, Setting> = {
  // Identity, plan, limits and domains.
  name: reseller(text(120, false)),
  code: reseller(pattern(COMPANY_CODE, '2 to 40 letters, digits, - or _', false)),
  appPath: reseller(
    pattern(APP_PATH, '1 to 63 lower-case letters, digits or - (not at either end)', true, (s) => s.toLowerCase()),
  ),
  appCustomDomain: reseller(pattern(DOMAIN, 'a host name like prode.example.com', true, (s) => s.toLowerCase())),
  maxUsersAmount: reseller(int(1, 10_000_000)),
  allowExceedMaxUsers: reseller(bool),
  allowMobileApp: reseller(bool),
  loginStrategy: reseller(int(0, 1, [0, 1])),
  purchasedPlan: reseller(oneOf(['full', 'lite'])),
  purchasedGames: reseller(
    merged(
      storedPurchasedGames,
      (g) =>
        typeof g.prode === 'boolean' && typeof g.trivia === 'boolean' ? null : 'prode and trivia must be true or false',
      'purchasedGames',
    ),
  ),
  isReseller: { authority: 'manager', check: bool },
  // Look, texts and announcements.
  logoUrl: admin(url),
  isologoUrl: admin(url),
  loginImageUrl: admin(url),
  loginLogoUrl: admin(url),
  loginText: admin(text(2000)),
  customFontFamily: admin(text(100)),
  customColors: admin(smallObject),
  theme: admin(smallObject),
  banners: admin(banners),
  comingSoonModeIsEnabled: admin(bool),
  comingSoonModeBackgroundImageUrl: admin(url),
  comingSoonModeTextColor: admin(pattern(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'a color like #1a2b3c', true)),
  comingSoonText: admin(text(2000)),
  loginAnnouncementIsEnabled: admin(bool),
  loginAnnouncementSeverity: admin(oneOf(SEVERITIES, true)),
  loginAnnouncementText: admin(text(2000)),
  mainPageAnnouncementIsEnabled: admin(bool),
  mainPageAnnouncementSeverity: admin(oneOf(SEVERITIES, true)),
  mainPageAnnouncementText: admin(text(2000)),
  supportEmail: admin(pattern(EMAIL_ADDRESS, 'an e-mail address', true, (s) => s.toLowerCase())),
  supportedLanguages: admin(
    stringList(20, (s) => /^[a-z]{2}(?:-[A-Z]{2})?$/.test(s), 'language codes like es or pt-BR'),
  ),
  rssFeeds: admin(stringList(20, isHttpUrl, 'http(s) URLs', true)),
  googleServicesConfig: admin(
    merged(
      storedGoogleServicesConfig,
      (g) =>
        typeof g.allowSearchEngineIndexing !== 'boolean'
          ? 'allowSearchEngineIndexing must be true or false'
          : [g.adSenseClientId, g.analyticsTrackingId].some(
                (x) => x !== null && (typeof x !== 'string' || x.length > 100),
              )
            ? 'adSenseClientId and analyticsTrackingId must be strings of at most 100 characters, or null'
            : null,
      'googleServicesConfig',
    ),
  ),
  initialConfigLastStep: admin(text(40, false)),
  // Game options and rules.
  featureSettings: admin(merged(storedFeatureSettings, featureSettingsProblem, 'featureSettings')),
  notificationSettings: admin(
    merged(
      companyNotificationSettings,
      (n) =>
        !(
          Array.isArray(n.forbiddenTypes) &&
          n.forbiddenTypes.every((t) => (NOTIFICATION_TYPES as readonly unknown[]).includes(t))
        )
          ? `forbiddenTypes must list notification types (${NOTIFICATION_TYPES.join(', ')})`
          : n.forbiddenTypes.includes(ALWAYS_TOLD)
            ? `forbiddenTypes cannot list ${ALWAYS_TOLD}: a player is always told when an admin enters their prediction`
            : !isReminderHours(n.reminderHoursBefore)
              ? `reminderHoursBefore must be a whole number of hours from ${REMINDER_HOURS.min} to ` +
                `${REMINDER_HOURS.max}`
              : null,
      'notificationSettings',
    ),
  ),
  passwordPolicy: admin(oneOf(['base', 'strong', 'nist'])),
  requiresEmailVerification: admin(bool),
  allowUserDeleteAccount: admin(bool),
  allowUserEmailEdit: admin(bool),
  allowUserNameEdit: admin(bool),
  combinedRoundsRankingDefinitions: admin(
    stringList(50, (s) => ROUNDS_DEFINITION.test(s), 'definitions like "Group stage:1,2,3"'),
  ),
  ...Object.fromEntries(DISABLE_SWITCHES.map((name) => [name, admin(bool)])),
};

export type SettingsResult =
  | { ok: true; data: Record<string, unknown>; authorities: Set<SettingAuthority> }
  | { ok: false; field: string; message: string };

/**
 * Checks the settings given (undefined: left as they are) against the stored company (`current`, {} for a new
 * one): the data to write, and the authorities the change needs; or the first bad field.
 */
export function checkCompanySettings(input: Record<string, unknown>, current: Record<string, unknown>): SettingsResult {
  const data: Record<string, unknown> = {};
  const authorities = new Set<SettingAuthority>();
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const setting = COMPANY_SETTINGS[field];
    if (!setting) return { ok: false, field, message: `${field} is not a company setting` };
    const r = setting.check(value, current);
    if ('problem' in r) return { ok: false, field, message: `${field} ${r.problem}` };
    data[field] = r.value;
    authorities.add(setting.authority);
  }
  return { ok: true, data, authorities };
}
