// The documents of the matrix's GraphQL rows that have no codegen'd REST operation: each reaches as far as the schema
// allows into users, companies and predictions, so that a leak anywhere below the root shows in the response.
import { DEMO_PASSWORD } from '../../helpers/app.ts';

const USER_DEEP = `id email name recoverPasswordToken company { name skipLoginToken managedCompanies { name } }
  posts { text } predictions { match { id predictions { user { email company { name } } } } }`;
const MATCH_DEEP = `id homeTeam { name } awayTeam { name }
  predictions { homeTeamGoals user { email name recoverPasswordToken company { name managerUsers { email } } } }`;
const TOURNAMENT_DEEP = `id name country { name teams tournaments } rounds { name matches { ${MATCH_DEEP} } }`;
const COMPANY_DEEP = `id name code appPath skipLoginToken managedCompanies { name } areas { name }
  resellerCompany { name managerUsers { email } areas { name } tournaments { name } }
  tournaments { name } customTournaments { name } customTeams { name }
  dreamFinalsSettings { externalId company { name } }`;
const POST_DEEP = `id text company { name } user { ${USER_DEEP} }
  comments { text user { email } likes { user { email } } } likes { user { email company { name } } }`;
const COMMENT_DEEP = `id text user { email company { name } } post { id text company { name } }`;
const LEAGUE = `id name owner { id name } members { id name profilePictureUrl } tournament { name }`;
const LEAGUE_INVITATION = `id status invitedBy { id name } ranking { ${LEAGUE} }`;
const PUBLIC_COMPANY = `name
  resellerCompany {
    name managerUsers { email predictions { points } } areas { name }
    tournaments { name rounds { matches { predictions { user { email } } } } }
  }
  tournaments { name rounds { matches { predictions { points user { email name extraFields company { name } } } } } }`;
const INVITATION = `id name email company { name managerUsers { email } } areaLevel1 { name }`;

export const Q = {
  companiesSearch: `query($search: String) { companiesSearch(search: $search, take: 100) {
    name appPath managerUsers { email } areas { name } tournaments { name } } }`,
  company: `{ company { ${COMPANY_DEEP} } }`,
  match: `query($id: Int!) { match(id: $id) { ${MATCH_DEEP} round { name tournament { name } } } }`,
  me: `{ me { ${USER_DEEP} } }`,
  myInternalRankingInvitations: `{ myInternalRankingInvitations { ${LEAGUE_INVITATION} } }`,
  myInternalRankings: `{ myInternalRankings { ${LEAGUE} } }`,
  myNotifications: `{ myNotifications(take: 100) { id type payload readAt } }`,
  matches: `query($t: Int) { matches(tournamentId: $t, take: 100) {
    ${MATCH_DEEP} round { name tournament { name } } } }`,
  myPredictions: `query($t: Int) { myPredictions(tournamentId: $t, take: 100) {
    id homeTeamGoals user { email company { name } } match { ${MATCH_DEEP} round { tournament { name } } } } }`,
  myTournaments: `{ myTournaments { ${TOURNAMENT_DEEP} } }`,
  post: `query($id: Int!) { post(id: $id) { ${POST_DEEP} } }`,
  postComments: `query($postId: Int!) { postComments(postId: $postId) { ${COMMENT_DEEP} } }`,
  auditLog: `query($u: Int) { auditLog(userId: $u, take: 100) {
    total entries { kind reason before after actor { id name } targetUser { id name } } } }`,
  setPredictionFor: `mutation($u: Int!, $m: Int!) {
    setPredictionFor(userId: $u, input: { matchId: $m, homeTeamGoals: 9, awayTeamGoals: 9 }, reason: "isolation") {
    id homeTeamGoals enteredBy { id name } user { email } match { id } } }`,
  ranking: `query($t: Int!, $area: Int, $league: Int, $round: Int) {
    ranking(tournamentId: $t, areaId: $area, internalRankingId: $league, roundId: $round, take: 100) {
    total me { points } entries { points user { id name profilePictureUrl } } } }`,
  tournament: `query($id: Int!) { tournament(id: $id) { ${TOURNAMENT_DEEP} } }`,
  roundWinners: `query($t: Int!) { roundWinners(tournamentId: $t) {
    round { id name matches { statistics { predictions topScores(take: 20) { count } } } }
    points winners { id name profilePictureUrl } } }`,
  seasons: `{ seasons { id name tournaments { weight tournament { id name country { name } } } } }`,
  seasonRanking: `query($s: Int!) { seasonRanking(seasonId: $s, take: 100) {
    total me { points } entries { points user { id name profilePictureUrl } } } }`,
  areaRanking: `query($t: Int!) { areaRanking(tournamentId: $t, level: 1, take: 100) {
    total entries { position points members area { id name level } } } }`,

  /** Everything a public invitation link reaches: the company, its reseller's managed companies, predictions. */
  invitationByJwt: `query($jwt: String!) { invitationByJwt(jwt: $jwt) { id email company { ${PUBLIC_COMPANY} } } }`,

  acceptInvitation: `mutation($jwt: String!) {
    acceptInvitation(jwt: $jwt, name: "Isolation Tester", password: "Another-pass-2026!") {
    token user { email company { ${PUBLIC_COMPANY} } } } }`,
  createComment: `mutation($postId: Int!) {
    createComment(postId: $postId, text: "isolation comment") { ${COMMENT_DEEP} } }`,
  createInternalRanking: `mutation($t: Int!) {
    createInternalRanking(tournamentId: $t, name: "isolation league") { ${LEAGUE} } }`,
  createInvitation: `mutation($input: CreateInvitationInput!) {
    createInvitation(input: $input) { token invitation { ${INVITATION} } } }`,
  createPost: `mutation { createPost(text: "isolation post") { ${POST_DEEP} } }`,
  createSeason: `mutation($t: Int!) {
    createSeason(input: { name: "isolation season", tournamentIds: [$t] }) { id name tournaments { weight } } }`,
  updateSeason: `mutation($id: Int!) {
    updateSeason(id: $id, input: { name: "hijacked" }) { id name tournaments { tournament { name } } } }`,
  deleteSeason: `mutation($id: Int!) { deleteSeason(id: $id) }`,
  deleteComment: `mutation($id: Int!) { deleteComment(id: $id) }`,
  deletePost: `mutation($id: Int!) { deletePost(id: $id) }`,
  inviteToInternalRanking: `mutation($r: Int!, $u: Int!) {
    inviteToInternalRanking(rankingId: $r, userId: $u) { ${LEAGUE_INVITATION} } }`,
  leaveInternalRanking: `mutation($r: Int!) { leaveInternalRanking(rankingId: $r) }`,
  likeComment: `mutation($id: Int!) { likeComment(commentId: $id) { ${COMMENT_DEEP} } }`,
  likePost: `mutation($id: Int!) { likePost(postId: $id) { ${POST_DEEP} } }`,
  login: `mutation($email: String!) {
    login(email: $email, password: "${DEMO_PASSWORD}") { token user { ${USER_DEEP} } } }`,
  markNotificationsRead: `mutation($ids: [Int!]) { markNotificationsRead(ids: $ids) }`,
  updateNotificationSettings: `mutation($input: NotificationSettingsInput!) {
    updateNotificationSettings(input: $input) { disabledTypes emailEnabled reminderHoursBefore } }`,
  respondToInternalRankingInvitation: `mutation($id: Int!) {
    respondToInternalRankingInvitation(invitationId: $id, accept: true) { ${LEAGUE_INVITATION} } }`,
  revokeInvitation: `mutation($id: Int!) { revokeInvitation(id: $id) }`,
  setDreamFinalPicks: `mutation($s: Int!, $teams: [Int!]!) {
    setDreamFinalPicks(settingId: $s, teamIds: $teams) { id externalId company { name } myPicks { team { name } } } }`,
  setMatchResult: `mutation($m: Int!) {
    setMatchResult(input: { matchId: $m, homeTeamGoals: 7, awayTeamGoals: 0, status: FINISHED }) { ${MATCH_DEEP} } }`,
  unlikeComment: `mutation($id: Int!) { unlikeComment(commentId: $id) { ${COMMENT_DEEP} } }`,
  unlikePost: `mutation($id: Int!) { unlikePost(postId: $id) { ${POST_DEEP} } }`,
  updateComment: `mutation($id: Int!) { updateComment(id: $id, text: "hijacked") { ${COMMENT_DEEP} } }`,
  updatePost: `mutation($id: Int!) { updatePost(id: $id, text: "hijacked") { ${POST_DEEP} } }`,
  upsertPrediction: `mutation($m: Int!) {
    upsertPrediction(input: { matchId: $m, homeTeamGoals: 9, awayTeamGoals: 9 }) {
    id homeTeamGoals user { email } match { id } } }`,
};
