// Every GraphQL enum of the API. Stored vocabularies come from the Prisma schema; the rest are spec values.
import { registerEnumType } from 'type-graphql';
import {
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

registerEnumType(Role, { name: 'Role', description: 'Ranked player < admin < reseller < manager.' });
registerEnumType(PurchasedPlan, { name: 'PurchasedPlan' });
registerEnumType(PasswordPolicy, { name: 'PasswordPolicy' });
registerEnumType(PenaltiesWinner, { name: 'PenaltiesWinner' });
registerEnumType(LoginProviderName, { name: 'LoginProviderName' });
registerEnumType(MatchStatus, { name: 'MatchStatus', description: "football-data.org's match status vocabulary." });
registerEnumType(PredictionStatus, {
  name: 'PredictionStatus',
  description: 'PENDING until scored; SCORED with points; VOID when the match was cancelled.',
});
registerEnumType(ExtraFieldType, { name: 'ExtraFieldType' });
registerEnumType(NotificationType, { name: 'NotificationType' });
registerEnumType(BannerType, { name: 'BannerType' });
registerEnumType(DisplayAuthorType, { name: 'DisplayAuthorType' });
registerEnumType(PostAllowedContent, { name: 'PostAllowedContent' });
registerEnumType(TriviaWindow, {
  name: 'TriviaWindow',
  description: 'A trivia question by the server clock: UPCOMING before startsAt, OPEN until endsAt, then CLOSED.',
});
registerEnumType(VisibleAreaRankings, { name: 'VisibleAreaRankings' });
