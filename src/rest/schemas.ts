// JSON Schemas (2020-12) of the REST responses, written from the spec (section 2): R -> required, O -> optional
// and nullable, enums as listed, date-time as a format. Where a route cuts the nesting off (docs/rest.md) the
// cut field is optional: present, it must still have its shape. additionalProperties: false everywhere, so a
// field the spec does not list (a secret, say) fails the contract.
import { DISABLE_SWITCHES } from '../domain/company-settings.ts';

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const num: Schema = { type: 'number' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const json: Schema = {};
const object: Schema = { type: 'object' };
const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
const nullable = (s: Schema): Schema => ({ anyOf: [s, { type: 'null' }] });
const enumOf = (...values: Array<string | number>): Schema => ({ enum: values });
/** A secret the spec lists: the property may appear, but only as null. */
const alwaysNull: Schema = { type: 'null' };

/** R fields are required (and non-null unless wrapped in nullable); O fields optional and nullable. */
function obj(required: Record<string, Schema>, optional: Record<string, Schema> = {}): Schema {
  const props: Record<string, Schema> = { ...required };
  for (const [k, v] of Object.entries(optional)) props[k] = v === alwaysNull ? v : nullable(v);
  return { type: 'object', required: Object.keys(required), properties: props, additionalProperties: false };
}

const ROLE = enumOf('player', 'admin', 'reseller', 'manager');
const NOTIFICATION_TYPE = enumOf(
  'pendingMatchesPredictions',
  'rankingsUpdated',
  'pendingDreamFinalPrediction',
  'internalRankingInvitationReceived',
  'internalRankingInvitationAccepted',
  'internalRankingInvitationRejected',
);
const MATCH_STATUS = enumOf(
  'SCHEDULED',
  'TIMED',
  'IN_PLAY',
  'PAUSED',
  'EXTRA_TIME',
  'PENALTY_SHOOTOUT',
  'FINISHED',
  'SUSPENDED',
  'POSTPONED',
  'CANCELLED',
  'AWARDED',
);
const PREDICTION_STATUS = enumOf('PENDING', 'SCORED', 'VOID');
const SIDE = enumOf('home', 'away');
const bannerSlot = obj({}, { desktopImageUrl: str, mobileImageUrl: str, link: str });

export const $defs: Record<string, Schema> = {
  // 2.7. company is cut off in every route (it is the company the area was reached from).
  Area: obj(
    {
      id: num,
      name: str,
      parentArea: nullable(
        obj({ id: num, name: str }, { parentArea: object, childrenAreas: arrayOf(object), company: object }),
      ),
      childrenAreas: arrayOf(ref('Area')),
    },
    { company: ref('CompanyFull') },
  ),
  // 2.5
  ExtraFieldDefinition: obj(
    {
      id: str,
      name: str,
      kind: str,
      order: num,
      isRequired: bool,
      type: enumOf('string', 'number', 'boolean', 'email', 'date', 'country', 'state', 'city', 'select'),
    },
    {
      group: object,
      locationScope: obj(
        {},
        { countries: arrayOf(obj({ code: str, name: str })), states: arrayOf(obj({ code: str, name: str })) },
      ),
      onlyForAreas: arrayOf(num),
      settings: object,
    },
  ),
  // 2.4 full form
  CompanyFull: obj(
    {
      id: num,
      name: str,
      code: str,
      allowExceedMaxUsers: bool,
      allowMobileApp: bool,
      allowUserDeleteAccount: bool,
      allowUserEmailEdit: bool,
      allowUserNameEdit: bool,
      areas: arrayOf(ref('Area')),
      combinedRoundsRankingDefinitions: arrayOf(str),
      comingSoonModeIsEnabled: bool,
      customColors: object,
      ...Object.fromEntries(DISABLE_SWITCHES.map((f) => [f, bool])),
      dreamFinalsSettings: arrayOf(ref('DreamFinalsSetting')),
      extraFields: arrayOf(ref('ExtraFieldDefinition')),
      featureSettings: obj({
        areas: obj({ minUsersForAreaRanking: num, selfAssignOnSignUp: bool }),
        community: obj({
          enabled: bool,
          postAllowedContent: enumOf('textOnly', 'textAndImage'),
          postAuthorMinRole: ROLE,
        }),
        rankings: obj({
          showGeneralRanking: bool,
          showRoundRankings: bool,
          showRoundRankingsForAreas: bool,
          visibleAreaRankings: enumOf('none', 'all', 'own'),
        }),
      }),
      googleServicesConfig: obj(
        { allowSearchEngineIndexing: bool },
        { adSenseClientId: str, analyticsTrackingId: str },
      ),
      initialConfigLastStep: str,
      invitations: arrayOf(str),
      isReseller: bool,
      loginAnnouncementIsEnabled: bool,
      mainPageAnnouncementIsEnabled: bool,
      loginStrategy: enumOf(0, 1),
      maxUsersAmount: num,
      news: arrayOf(str),
      notificationSettings: obj({ forbiddenTypes: arrayOf(NOTIFICATION_TYPE) }),
      passwordPolicy: enumOf('base', 'strong', 'nist'),
      purchasedGames: obj({ prode: bool, trivia: bool }),
      purchasedPlan: enumOf('full', 'lite'),
      requiresEmailVerification: bool,
      supportedLanguages: arrayOf(str),
      theme: object,
      tournaments: arrayOf(ref('Tournament')),
      users: arrayOf(str),
    },
    {
      appCustomDomain: str,
      appPath: str,
      banners: arrayOf(
        obj({ type: enumOf('superior', 'middle', 'side') }, { desktopImageUrl: str, mobileImageUrl: str, link: str }),
      ),
      comingSoonModeBackgroundImageUrl: str,
      comingSoonModeTextColor: str,
      customFontFamily: str,
      customTeams: arrayOf(ref('Team')),
      customTournaments: arrayOf(ref('Tournament')),
      deletedAt: dateTime,
      isologoUrl: str,
      logoUrl: str,
      loginImageUrl: str,
      loginLogoUrl: str,
      loginAnnouncementSeverity: str,
      mainPageAnnouncementSeverity: str,
      managedCompanies: arrayOf(ref('CompanyCompact')),
      resellerCompany: ref('CompanyCompact'),
      rssFeeds: arrayOf(str),
      skipLoginToken: alwaysNull,
      supportEmail: str,
    },
  ),
  // 2.4 compact form
  CompanyCompact: obj(
    {
      id: num,
      name: str,
      loginStrategy: enumOf(0, 1),
      users: arrayOf(str),
      invitations: arrayOf(str),
      news: arrayOf(str),
      areas: arrayOf(ref('Area')),
      tournaments: arrayOf(ref('Tournament')),
      dreamFinalsSettings: arrayOf(ref('DreamFinalsSetting')),
      combinedRoundsRankingDefinitions: arrayOf(str),
      requiresEmailVerification: bool,
      isReseller: bool,
      allowUserEmailEdit: bool,
      allowUserNameEdit: bool,
      disableNews: bool,
      disableNewsFromHome: bool,
      disableRegister: bool,
      disableGoogleLogin: bool,
      maxUsersAmount: num,
      theme: object,
      extraFields: object,
    },
    {
      logoUrl: str,
      loginImageUrl: str,
      loginText: str,
      loginAnnouncementSeverity: str,
      loginAnnouncementText: str,
      isologoUrl: str,
      appCustomDomain: str,
      appPath: str,
      comingSoonModeIsEnabled: bool,
      comingSoonText: str,
      customFontFamily: str,
      superiorBanner: bannerSlot,
      middleBanner: bannerSlot,
      sideBanner: bannerSlot,
      managerUsers: arrayOf(ref('UserCompact')),
      deletedAt: dateTime,
      rssFeeds: arrayOf(str),
    },
  ),
  // 2.3 full form
  UserFull: obj(
    {
      id: num,
      name: str,
      email: str,
      emailVerified: bool,
      externalId: str,
      loginProviderId: str,
      preferredLanguage: str,
      requiresAccountRecovery: bool,
      role: ROLE,
      showInitialTour: bool,
      createdAt: dateTime,
      company: ref('CompanyFull'),
      // Required; null when the user has no area at that level.
      areaLevel1: nullable(ref('Area')),
      areaLevel2: nullable(ref('Area')),
      areaLevel3: nullable(ref('Area')),
      extraFields: arrayOf(obj({ name: str, value: json })),
      notificationSettings: obj({ disabledTypes: arrayOf(NOTIFICATION_TYPE), emailEnabled: bool }),
      firebaseTokens: arrayOf(object),
      internalRankingMemberships: arrayOf(object),
      posts: arrayOf(object),
      predictions: arrayOf(object),
      triviaAnswers: arrayOf(object),
      triviaSolutions: arrayOf(object),
    },
    {
      loginProviderName: enumOf('google'),
      timezone: str,
      profilePictureUrl: str,
      portraitPictureUrl: str,
      recoverPasswordToken: alwaysNull,
      deletedAt: dateTime,
      lastActiveDate: dateTime,
      loginCount: num,
      areaLevel1Id: num,
      areaLevel2Id: num,
      areaLevel3Id: num,
    },
  ),
  // 2.3 compact form
  UserCompact: obj(
    {
      id: num,
      name: str,
      email: str,
      externalId: str,
      loginProviderId: str,
      preferredLanguage: str,
      emailVerified: bool,
      notificationsEnabled: bool,
      predictions: arrayOf(ref('Prediction')),
      company: ref('CompanyCompact'),
      role: ROLE,
      areaLevel1: nullable(ref('Area')),
      areaLevel2: nullable(ref('Area')),
      areaLevel3: nullable(ref('Area')),
      extraFields: object,
    },
    {
      loginProviderName: enumOf('google'),
      profilePictureUrl: str,
      portraitPictureUrl: str,
      recoverPasswordToken: alwaysNull,
      managedCompanies: arrayOf(ref('CompanyCompact')),
      deletedAt: dateTime,
      loginCount: num,
    },
  ),
  // 2.9
  Country: obj(
    { id: num, name: str, teams: arrayOf(str), tournaments: arrayOf(str) },
    { alpha2Code: str, flagUrl: str },
  ),
  Team: obj({ id: num, name: str, country: ref('Country') }, { logoUrl: str, externalId: str }),
  Tournament: obj(
    {
      id: num,
      name: str,
      hasTwoWayMatches: bool,
      importNewMatchesWithPenalties: bool,
      showNoMoreRoundsWarning: bool,
      country: ref('Country'),
      rounds: arrayOf(ref('Round')),
    },
    {
      logoUrl: str,
      isActive: bool,
      endDate: dateTime,
      hasPenalties: bool,
      season: str,
      externalId: str,
      defaultRssFeeds: arrayOf(str),
    },
  ),
  Round: obj(
    { id: num, name: str, date: dateTime, hasPenalties: bool, position: num, matches: arrayOf(ref('Match')) },
    { tournament: ref('Tournament'), externalId: str },
  ),
  // round is cut off: it is the round the match was reached from.
  Match: obj(
    {
      id: num,
      date: dateTime,
      venue: str,
      referee: str,
      status: MATCH_STATUS,
      homeTeam: ref('Team'),
      awayTeam: ref('Team'),
      predictions: arrayOf(ref('Prediction')),
    },
    {
      homeTeamGoals: int,
      awayTeamGoals: int,
      homeTeamPenaltyGoals: int,
      awayTeamPenaltyGoals: int,
      elapsedTime: num,
      penaltiesWinner: SIDE,
      round: ref('Round'),
      externalId: str,
      alreadySentOpenNotification: bool,
      hasPenalties: bool,
      isTwoWaysSecondMatch: bool,
      wasSuspended: bool,
    },
  ),
  // match is cut off: it is the match the prediction was reached from.
  Prediction: obj(
    { id: num, homeTeamGoals: int, awayTeamGoals: int, status: PREDICTION_STATUS, user: ref('UserCompact') },
    { penaltiesWinner: SIDE, points: num, match: ref('Match') },
  ),
  // tournament and company are cut off in the search route (the company is the parent; its tournaments sit beside).
  DreamFinalsSetting: obj(
    { id: num, awardedPositions: num, awardedPoints: num, limitRound: ref('Round'), isEnabled: bool },
    { tournament: ref('Tournament'), company: ref('CompanyFull'), externalId: str },
  ),
  // 2.1 and 2.2. A post reached back from its own comment or like keeps its scalars; its user, company and
  // author are cut off.
  PostRef: obj(
    { id: num, text: str, createdAt: dateTime, updatedAt: dateTime, comments: arrayOf(object), likes: arrayOf(object) },
    {
      imageUrl: str,
      user: ref('UserFull'),
      company: ref('CompanyFull'),
      commentsCount: num,
      likesCount: num,
      likedByMe: bool,
      displayAuthor: object,
    },
  ),
  Post: obj(
    {
      id: num,
      text: str,
      createdAt: dateTime,
      updatedAt: dateTime,
      user: ref('UserFull'),
      company: ref('CompanyFull'),
      displayAuthor: obj({ name: str, type: enumOf('user', 'company') }, { imageUrl: str }),
      comments: arrayOf(
        obj({
          id: num,
          text: str,
          createdAt: dateTime,
          updatedAt: dateTime,
          user: ref('UserFull'),
          post: ref('PostRef'),
          likes: arrayOf(object),
        }),
      ),
      commentsCount: num,
      likes: arrayOf(obj({ id: num, post: ref('PostRef'), user: ref('UserFull') })),
      likesCount: num,
      likedByMe: bool,
    },
    { imageUrl: str },
  ),
  PostComment: obj({
    id: num,
    text: str,
    createdAt: dateTime,
    updatedAt: dateTime,
    user: ref('UserFull'),
    post: obj(
      {
        id: num,
        text: str,
        createdAt: dateTime,
        updatedAt: dateTime,
        user: ref('UserFull'),
        company: ref('CompanyFull'),
        comments: arrayOf(object),
        likes: arrayOf(object),
      },
      { imageUrl: str },
    ),
    likes: arrayOf(
      obj({
        id: num,
        user: ref('UserFull'),
        comment: obj(
          { id: num, text: str, createdAt: dateTime, updatedAt: dateTime, likes: arrayOf(object) },
          { likesCount: num, likedByMe: bool, user: ref('UserFull'), post: object },
        ),
      }),
    ),
    likesCount: num,
    likedByMe: bool,
  }),
  // 2.8
  InvitationByJwt: obj(
    {
      id: num,
      role: ROLE,
      company: ref('CompanyFull'),
      areaLevel1: nullable(ref('Area')),
      areaLevel2: nullable(ref('Area')),
      areaLevel3: nullable(ref('Area')),
    },
    { externalId: str, name: str, email: str, areaLevel1Id: num, areaLevel2Id: num, areaLevel3Id: num },
  ),
  InvitationPatched: obj(
    {
      id: num,
      externalId: str,
      role: ROLE,
      company: ref('CompanyCompact'),
      areaLevel1: nullable(ref('Area')),
      areaLevel2: nullable(ref('Area')),
      areaLevel3: nullable(ref('Area')),
    },
    { name: str, email: str },
  ),
  LoginResponse: obj({ token: str, user: ref('UserFull') }),
  Error: obj({ statusCode: int, error: str, code: str, message: str }),
};

/** The response schema of each route, by "METHOD path" as OpenAPI writes it. */
export const routeResponses: Record<string, Schema> = {
  'GET /posts/{id}': ref('Post'),
  'GET /posts/{postId}/comments': arrayOf(ref('PostComment')),
  'GET /invitations/jwt/{jwt}': ref('InvitationByJwt'),
  'PATCH /invitations/{id}': ref('InvitationPatched'),
  'GET /companies/search': arrayOf(ref('CompanyCompact')),
  'GET /tournaments/me': arrayOf(ref('Tournament')),
  'POST /auth/login': ref('LoginResponse'),
};

export const SCHEMA_ID = 'https://prode.example/schemas/rest.json';
export const restSchemaDocument = { $id: SCHEMA_ID, $schema: 'https://json-schema.org/draft/2020-12/schema', $defs };
