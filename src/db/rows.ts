// Row types: the models as the store returns them (both providers' clients build the same objects).
export type {
  Area as AreaRow, Company as CompanyRow, Country as CountryRow, Match as MatchRow, Post as PostRow, PostComment as CommentRow,
  Prediction as PredictionRow, Round as RoundRow, Team as TeamRow, Tournament as TournamentRow, User as UserRow,
  Notification as NotificationRow, DreamFinalsSetting as DreamFinalsSettingRow, InternalRanking as InternalRankingRow,
  InternalRankingInvitation as InternalRankingInvitationRow, Invitation as InvitationRow,
} from '../generated/sqlite/client.ts';
