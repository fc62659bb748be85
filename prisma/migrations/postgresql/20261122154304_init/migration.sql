-- CreateEnum
CREATE TYPE "Role" AS ENUM ('player', 'admin', 'reseller', 'manager');

-- CreateEnum
CREATE TYPE "PurchasedPlan" AS ENUM ('full', 'lite');

-- CreateEnum
CREATE TYPE "PasswordPolicy" AS ENUM ('base', 'strong', 'nist');

-- CreateEnum
CREATE TYPE "PenaltiesWinner" AS ENUM ('home', 'away');

-- CreateEnum
CREATE TYPE "LoginProviderName" AS ENUM ('google');

-- CreateEnum
CREATE TYPE "MatchStatus" AS ENUM ('SCHEDULED', 'TIMED', 'IN_PLAY', 'PAUSED', 'EXTRA_TIME', 'PENALTY_SHOOTOUT', 'FINISHED', 'SUSPENDED', 'POSTPONED', 'CANCELLED', 'AWARDED');

-- CreateEnum
CREATE TYPE "PredictionStatus" AS ENUM ('PENDING', 'SCORED', 'VOID');

-- CreateEnum
CREATE TYPE "ExtraFieldType" AS ENUM ('string', 'number', 'boolean', 'email', 'date', 'country', 'state', 'city', 'select');

-- CreateEnum
CREATE TYPE "NotificationType" AS ENUM ('pendingMatchesPredictions', 'rankingsUpdated', 'pendingDreamFinalPrediction', 'internalRankingInvitationReceived', 'internalRankingInvitationAccepted', 'internalRankingInvitationRejected');

-- CreateEnum
CREATE TYPE "NotificationStatus" AS ENUM ('PENDING', 'SENT', 'FAILED', 'SKIPPED');

-- CreateEnum
CREATE TYPE "InternalRankingInvitationStatus" AS ENUM ('PENDING', 'ACCEPTED', 'REJECTED');

-- CreateTable
CREATE TABLE "Company" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "appPath" TEXT,
    "appCustomDomain" TEXT,
    "isReseller" BOOLEAN NOT NULL DEFAULT false,
    "resellerCompanyId" INTEGER,
    "allowExceedMaxUsers" BOOLEAN NOT NULL DEFAULT false,
    "allowMobileApp" BOOLEAN NOT NULL DEFAULT true,
    "allowUserDeleteAccount" BOOLEAN NOT NULL DEFAULT true,
    "allowUserEmailEdit" BOOLEAN NOT NULL DEFAULT false,
    "allowUserNameEdit" BOOLEAN NOT NULL DEFAULT true,
    "banners" JSONB,
    "combinedRoundsRankingDefinitions" JSONB NOT NULL,
    "comingSoonModeIsEnabled" BOOLEAN NOT NULL DEFAULT false,
    "comingSoonModeBackgroundImageUrl" TEXT,
    "comingSoonModeTextColor" TEXT,
    "comingSoonText" TEXT,
    "customColors" JSONB NOT NULL,
    "customFontFamily" TEXT,
    "disableAreaRankingsMainPageSummary" BOOLEAN NOT NULL DEFAULT false,
    "disableAreas" BOOLEAN NOT NULL DEFAULT false,
    "disableExtraPredictions" BOOLEAN NOT NULL DEFAULT false,
    "disableGoogleLogin" BOOLEAN NOT NULL DEFAULT false,
    "disableInitialTour" BOOLEAN NOT NULL DEFAULT false,
    "disableInternalRankings" BOOLEAN NOT NULL DEFAULT false,
    "disableNews" BOOLEAN NOT NULL DEFAULT false,
    "disableNewsFromHome" BOOLEAN NOT NULL DEFAULT false,
    "disableRankingsMainPageCards" BOOLEAN NOT NULL DEFAULT false,
    "disableRankingsMainPageSummary" BOOLEAN NOT NULL DEFAULT false,
    "disableRankingsTable" BOOLEAN NOT NULL DEFAULT false,
    "disableRankingsUserNames" BOOLEAN NOT NULL DEFAULT false,
    "disableRegister" BOOLEAN NOT NULL DEFAULT false,
    "disableTournamentDetails" BOOLEAN NOT NULL DEFAULT false,
    "disableTrivias" BOOLEAN NOT NULL DEFAULT false,
    "featureSettings" JSONB NOT NULL,
    "googleServicesConfig" JSONB NOT NULL,
    "initialConfigLastStep" TEXT NOT NULL DEFAULT 'done',
    "isologoUrl" TEXT,
    "logoUrl" TEXT,
    "loginImageUrl" TEXT,
    "loginLogoUrl" TEXT,
    "loginText" TEXT,
    "loginAnnouncementIsEnabled" BOOLEAN NOT NULL DEFAULT false,
    "loginAnnouncementSeverity" TEXT,
    "loginAnnouncementText" TEXT,
    "mainPageAnnouncementIsEnabled" BOOLEAN NOT NULL DEFAULT false,
    "mainPageAnnouncementSeverity" TEXT,
    "mainPageAnnouncementText" TEXT,
    "loginStrategy" INTEGER NOT NULL DEFAULT 0,
    "maxUsersAmount" INTEGER NOT NULL DEFAULT 100,
    "notificationSettings" JSONB NOT NULL,
    "passwordPolicy" "PasswordPolicy" NOT NULL DEFAULT 'base',
    "purchasedGames" JSONB NOT NULL,
    "purchasedPlan" "PurchasedPlan" NOT NULL DEFAULT 'full',
    "requiresEmailVerification" BOOLEAN NOT NULL DEFAULT false,
    "rssFeeds" JSONB,
    "skipLoginToken" TEXT,
    "supportedLanguages" JSONB NOT NULL,
    "supportEmail" TEXT,
    "theme" JSONB NOT NULL,
    "scoringSettings" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "Company_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyExtraField" (
    "id" TEXT NOT NULL,
    "companyId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "order" INTEGER NOT NULL,
    "isRequired" BOOLEAN NOT NULL DEFAULT false,
    "type" "ExtraFieldType" NOT NULL,
    "group" JSONB,
    "locationScope" JSONB,
    "onlyForAreas" JSONB,
    "settings" JSONB,

    CONSTRAINT "CompanyExtraField_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "externalId" TEXT NOT NULL,
    "loginProviderId" TEXT NOT NULL,
    "loginProviderName" "LoginProviderName",
    "passwordHash" TEXT,
    "preferredLanguage" TEXT NOT NULL DEFAULT 'es',
    "timezone" TEXT,
    "profilePictureUrl" TEXT,
    "portraitPictureUrl" TEXT,
    "recoverPasswordToken" TEXT,
    "requiresAccountRecovery" BOOLEAN NOT NULL DEFAULT false,
    "role" "Role" NOT NULL DEFAULT 'player',
    "showInitialTour" BOOLEAN NOT NULL DEFAULT true,
    "areaLevel1Id" INTEGER,
    "areaLevel2Id" INTEGER,
    "areaLevel3Id" INTEGER,
    "extraFields" JSONB NOT NULL,
    "notificationSettings" JSONB NOT NULL,
    "lastActiveDate" TIMESTAMP(3),
    "loginCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Area" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    "parentAreaId" INTEGER,

    CONSTRAINT "Area_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "externalId" TEXT,
    "name" TEXT,
    "email" TEXT,
    "role" "Role" NOT NULL DEFAULT 'player',
    "areaLevel1Id" INTEGER,
    "areaLevel2Id" INTEGER,
    "areaLevel3Id" INTEGER,
    "createdById" INTEGER,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "acceptedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "News" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "imageUrl" TEXT,
    "publishedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "News_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Country" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "alpha2Code" TEXT,
    "flagUrl" TEXT,

    CONSTRAINT "Country_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Team" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "logoUrl" TEXT,
    "countryId" INTEGER NOT NULL,
    "externalId" TEXT,
    "companyId" INTEGER,

    CONSTRAINT "Team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Tournament" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "logoUrl" TEXT,
    "isActive" BOOLEAN DEFAULT true,
    "endDate" TIMESTAMP(3),
    "hasPenalties" BOOLEAN,
    "hasTwoWayMatches" BOOLEAN NOT NULL DEFAULT false,
    "importNewMatchesWithPenalties" BOOLEAN NOT NULL DEFAULT false,
    "showNoMoreRoundsWarning" BOOLEAN NOT NULL DEFAULT false,
    "countryId" INTEGER NOT NULL,
    "season" TEXT,
    "externalId" TEXT,
    "defaultRssFeeds" JSONB,
    "ownerCompanyId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "Tournament_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyTournament" (
    "companyId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "joinedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CompanyTournament_pkey" PRIMARY KEY ("companyId","tournamentId")
);

-- CreateTable
CREATE TABLE "Round" (
    "id" SERIAL NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "date" TIMESTAMP(3) NOT NULL,
    "hasPenalties" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL,
    "externalId" TEXT,

    CONSTRAINT "Round_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Match" (
    "id" SERIAL NOT NULL,
    "roundId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "date" TIMESTAMP(3) NOT NULL,
    "venue" TEXT NOT NULL DEFAULT '',
    "referee" TEXT NOT NULL DEFAULT '',
    "homeTeamId" INTEGER NOT NULL,
    "awayTeamId" INTEGER NOT NULL,
    "homeTeamGoals" INTEGER,
    "awayTeamGoals" INTEGER,
    "homeTeamPenaltyGoals" INTEGER,
    "awayTeamPenaltyGoals" INTEGER,
    "elapsedTime" INTEGER,
    "status" "MatchStatus" NOT NULL DEFAULT 'SCHEDULED',
    "penaltiesWinner" "PenaltiesWinner",
    "externalId" TEXT,
    "group" TEXT,
    "alreadySentOpenNotification" BOOLEAN DEFAULT false,
    "hasPenalties" BOOLEAN,
    "isTwoWaysSecondMatch" BOOLEAN DEFAULT false,
    "wasSuspended" BOOLEAN DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Match_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Prediction" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "matchId" INTEGER NOT NULL,
    "homeTeamGoals" INTEGER NOT NULL,
    "awayTeamGoals" INTEGER NOT NULL,
    "penaltiesWinner" "PenaltiesWinner",
    "status" "PredictionStatus" NOT NULL DEFAULT 'PENDING',
    "points" INTEGER,
    "exactHit" BOOLEAN NOT NULL DEFAULT false,
    "outcomeHit" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Prediction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DreamFinalsSetting" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "awardedPositions" INTEGER NOT NULL,
    "awardedPoints" INTEGER NOT NULL,
    "limitRoundId" INTEGER NOT NULL,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "externalId" TEXT,

    CONSTRAINT "DreamFinalsSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DreamFinalPick" (
    "id" SERIAL NOT NULL,
    "settingId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "teamId" INTEGER NOT NULL,
    "points" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DreamFinalPick_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Post" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "imageUrl" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "Post_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PostComment" (
    "id" SERIAL NOT NULL,
    "postId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PostComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PostLike" (
    "id" SERIAL NOT NULL,
    "postId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PostLike_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PostCommentLike" (
    "id" SERIAL NOT NULL,
    "commentId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PostCommentLike_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FirebaseToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "platform" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FirebaseToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InternalRanking" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "tournamentId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InternalRanking_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InternalRankingMembership" (
    "id" SERIAL NOT NULL,
    "rankingId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "joinedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InternalRankingMembership_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InternalRankingInvitation" (
    "id" SERIAL NOT NULL,
    "rankingId" INTEGER NOT NULL,
    "invitedUserId" INTEGER NOT NULL,
    "invitedById" INTEGER NOT NULL,
    "status" "InternalRankingInvitationStatus" NOT NULL DEFAULT 'PENDING',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "respondedAt" TIMESTAMP(3),

    CONSTRAINT "InternalRankingInvitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TriviaQuestion" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "correctOption" INTEGER NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 1,
    "startsAt" TIMESTAMP(3) NOT NULL,
    "endsAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TriviaQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TriviaAnswer" (
    "id" SERIAL NOT NULL,
    "questionId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "option" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TriviaAnswer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TriviaSolution" (
    "id" SERIAL NOT NULL,
    "questionId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "isCorrect" BOOLEAN NOT NULL,
    "points" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TriviaSolution_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "companyId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "type" "NotificationType" NOT NULL,
    "payload" JSONB NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "sendEmail" BOOLEAN NOT NULL DEFAULT false,
    "status" "NotificationStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),
    "readAt" TIMESTAMP(3),

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Company_code_key" ON "Company"("code");

-- CreateIndex
CREATE UNIQUE INDEX "Company_appPath_key" ON "Company"("appPath");

-- CreateIndex
CREATE UNIQUE INDEX "Company_appCustomDomain_key" ON "Company"("appCustomDomain");

-- CreateIndex
CREATE INDEX "Company_resellerCompanyId_idx" ON "Company"("resellerCompanyId");

-- CreateIndex
CREATE INDEX "Company_name_idx" ON "Company"("name");

-- CreateIndex
CREATE INDEX "CompanyExtraField_companyId_order_idx" ON "CompanyExtraField"("companyId", "order");

-- CreateIndex
CREATE UNIQUE INDEX "CompanyExtraField_companyId_name_key" ON "CompanyExtraField"("companyId", "name");

-- CreateIndex
CREATE INDEX "User_companyId_role_idx" ON "User"("companyId", "role");

-- CreateIndex
CREATE INDEX "User_companyId_name_idx" ON "User"("companyId", "name");

-- CreateIndex
CREATE INDEX "User_areaLevel1Id_idx" ON "User"("areaLevel1Id");

-- CreateIndex
CREATE INDEX "User_areaLevel2Id_idx" ON "User"("areaLevel2Id");

-- CreateIndex
CREATE INDEX "User_areaLevel3Id_idx" ON "User"("areaLevel3Id");

-- CreateIndex
CREATE INDEX "User_externalId_idx" ON "User"("externalId");

-- CreateIndex
CREATE UNIQUE INDEX "User_companyId_email_key" ON "User"("companyId", "email");

-- CreateIndex
CREATE INDEX "Area_companyId_level_idx" ON "Area"("companyId", "level");

-- CreateIndex
CREATE INDEX "Area_parentAreaId_idx" ON "Area"("parentAreaId");

-- CreateIndex
CREATE UNIQUE INDEX "Area_companyId_parentAreaId_name_key" ON "Area"("companyId", "parentAreaId", "name");

-- CreateIndex
CREATE INDEX "Invitation_areaLevel1Id_idx" ON "Invitation"("areaLevel1Id");

-- CreateIndex
CREATE INDEX "Invitation_areaLevel2Id_idx" ON "Invitation"("areaLevel2Id");

-- CreateIndex
CREATE INDEX "Invitation_areaLevel3Id_idx" ON "Invitation"("areaLevel3Id");

-- CreateIndex
CREATE INDEX "Invitation_createdById_idx" ON "Invitation"("createdById");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_companyId_email_key" ON "Invitation"("companyId", "email");

-- CreateIndex
CREATE INDEX "News_companyId_publishedAt_idx" ON "News"("companyId", "publishedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Country_name_key" ON "Country"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Country_alpha2Code_key" ON "Country"("alpha2Code");

-- CreateIndex
CREATE UNIQUE INDEX "Team_externalId_key" ON "Team"("externalId");

-- CreateIndex
CREATE INDEX "Team_countryId_idx" ON "Team"("countryId");

-- CreateIndex
CREATE INDEX "Team_companyId_idx" ON "Team"("companyId");

-- CreateIndex
CREATE INDEX "Team_name_idx" ON "Team"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Tournament_externalId_key" ON "Tournament"("externalId");

-- CreateIndex
CREATE INDEX "Tournament_countryId_idx" ON "Tournament"("countryId");

-- CreateIndex
CREATE INDEX "Tournament_ownerCompanyId_idx" ON "Tournament"("ownerCompanyId");

-- CreateIndex
CREATE INDEX "CompanyTournament_tournamentId_idx" ON "CompanyTournament"("tournamentId");

-- CreateIndex
CREATE UNIQUE INDEX "Round_externalId_key" ON "Round"("externalId");

-- CreateIndex
CREATE INDEX "Round_tournamentId_position_idx" ON "Round"("tournamentId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "Match_externalId_key" ON "Match"("externalId");

-- CreateIndex
CREATE INDEX "Match_roundId_date_idx" ON "Match"("roundId", "date");

-- CreateIndex
CREATE INDEX "Match_tournamentId_date_idx" ON "Match"("tournamentId", "date");

-- CreateIndex
CREATE INDEX "Match_homeTeamId_idx" ON "Match"("homeTeamId");

-- CreateIndex
CREATE INDEX "Match_awayTeamId_idx" ON "Match"("awayTeamId");

-- CreateIndex
CREATE INDEX "Match_date_idx" ON "Match"("date");

-- CreateIndex
CREATE INDEX "Prediction_matchId_userId_idx" ON "Prediction"("matchId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Prediction_userId_matchId_key" ON "Prediction"("userId", "matchId");

-- CreateIndex
CREATE INDEX "DreamFinalsSetting_tournamentId_idx" ON "DreamFinalsSetting"("tournamentId");

-- CreateIndex
CREATE INDEX "DreamFinalsSetting_limitRoundId_idx" ON "DreamFinalsSetting"("limitRoundId");

-- CreateIndex
CREATE UNIQUE INDEX "DreamFinalsSetting_companyId_tournamentId_key" ON "DreamFinalsSetting"("companyId", "tournamentId");

-- CreateIndex
CREATE INDEX "DreamFinalPick_userId_idx" ON "DreamFinalPick"("userId");

-- CreateIndex
CREATE INDEX "DreamFinalPick_teamId_idx" ON "DreamFinalPick"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "DreamFinalPick_settingId_userId_position_key" ON "DreamFinalPick"("settingId", "userId", "position");

-- CreateIndex
CREATE INDEX "Post_companyId_createdAt_idx" ON "Post"("companyId", "createdAt");

-- CreateIndex
CREATE INDEX "Post_userId_idx" ON "Post"("userId");

-- CreateIndex
CREATE INDEX "PostComment_postId_createdAt_idx" ON "PostComment"("postId", "createdAt");

-- CreateIndex
CREATE INDEX "PostComment_userId_idx" ON "PostComment"("userId");

-- CreateIndex
CREATE INDEX "PostLike_userId_idx" ON "PostLike"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "PostLike_postId_userId_key" ON "PostLike"("postId", "userId");

-- CreateIndex
CREATE INDEX "PostCommentLike_userId_idx" ON "PostCommentLike"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "PostCommentLike_commentId_userId_key" ON "PostCommentLike"("commentId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "FirebaseToken_token_key" ON "FirebaseToken"("token");

-- CreateIndex
CREATE INDEX "FirebaseToken_userId_idx" ON "FirebaseToken"("userId");

-- CreateIndex
CREATE INDEX "InternalRanking_companyId_tournamentId_idx" ON "InternalRanking"("companyId", "tournamentId");

-- CreateIndex
CREATE INDEX "InternalRanking_tournamentId_idx" ON "InternalRanking"("tournamentId");

-- CreateIndex
CREATE INDEX "InternalRanking_ownerId_idx" ON "InternalRanking"("ownerId");

-- CreateIndex
CREATE INDEX "InternalRankingMembership_userId_idx" ON "InternalRankingMembership"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "InternalRankingMembership_rankingId_userId_key" ON "InternalRankingMembership"("rankingId", "userId");

-- CreateIndex
CREATE INDEX "InternalRankingInvitation_invitedUserId_status_idx" ON "InternalRankingInvitation"("invitedUserId", "status");

-- CreateIndex
CREATE INDEX "InternalRankingInvitation_invitedById_idx" ON "InternalRankingInvitation"("invitedById");

-- CreateIndex
CREATE UNIQUE INDEX "InternalRankingInvitation_rankingId_invitedUserId_key" ON "InternalRankingInvitation"("rankingId", "invitedUserId");

-- CreateIndex
CREATE INDEX "TriviaQuestion_companyId_startsAt_idx" ON "TriviaQuestion"("companyId", "startsAt");

-- CreateIndex
CREATE INDEX "TriviaAnswer_userId_idx" ON "TriviaAnswer"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "TriviaAnswer_questionId_userId_key" ON "TriviaAnswer"("questionId", "userId");

-- CreateIndex
CREATE INDEX "TriviaSolution_userId_idx" ON "TriviaSolution"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "TriviaSolution_questionId_userId_key" ON "TriviaSolution"("questionId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_dedupeKey_key" ON "Notification"("dedupeKey");

-- CreateIndex
CREATE INDEX "Notification_userId_createdAt_idx" ON "Notification"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_status_createdAt_idx" ON "Notification"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_companyId_idx" ON "Notification"("companyId");

-- AddForeignKey
ALTER TABLE "Company" ADD CONSTRAINT "Company_resellerCompanyId_fkey" FOREIGN KEY ("resellerCompanyId") REFERENCES "Company"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyExtraField" ADD CONSTRAINT "CompanyExtraField_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_areaLevel1Id_fkey" FOREIGN KEY ("areaLevel1Id") REFERENCES "Area"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_areaLevel2Id_fkey" FOREIGN KEY ("areaLevel2Id") REFERENCES "Area"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_areaLevel3Id_fkey" FOREIGN KEY ("areaLevel3Id") REFERENCES "Area"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Area" ADD CONSTRAINT "Area_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Area" ADD CONSTRAINT "Area_parentAreaId_fkey" FOREIGN KEY ("parentAreaId") REFERENCES "Area"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_areaLevel1Id_fkey" FOREIGN KEY ("areaLevel1Id") REFERENCES "Area"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_areaLevel2Id_fkey" FOREIGN KEY ("areaLevel2Id") REFERENCES "Area"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_areaLevel3Id_fkey" FOREIGN KEY ("areaLevel3Id") REFERENCES "Area"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "News" ADD CONSTRAINT "News_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_countryId_fkey" FOREIGN KEY ("countryId") REFERENCES "Country"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tournament" ADD CONSTRAINT "Tournament_countryId_fkey" FOREIGN KEY ("countryId") REFERENCES "Country"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Tournament" ADD CONSTRAINT "Tournament_ownerCompanyId_fkey" FOREIGN KEY ("ownerCompanyId") REFERENCES "Company"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyTournament" ADD CONSTRAINT "CompanyTournament_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyTournament" ADD CONSTRAINT "CompanyTournament_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Round" ADD CONSTRAINT "Round_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_roundId_fkey" FOREIGN KEY ("roundId") REFERENCES "Round"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_homeTeamId_fkey" FOREIGN KEY ("homeTeamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Match" ADD CONSTRAINT "Match_awayTeamId_fkey" FOREIGN KEY ("awayTeamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Prediction" ADD CONSTRAINT "Prediction_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Prediction" ADD CONSTRAINT "Prediction_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "Match"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DreamFinalsSetting" ADD CONSTRAINT "DreamFinalsSetting_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DreamFinalsSetting" ADD CONSTRAINT "DreamFinalsSetting_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DreamFinalsSetting" ADD CONSTRAINT "DreamFinalsSetting_limitRoundId_fkey" FOREIGN KEY ("limitRoundId") REFERENCES "Round"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DreamFinalPick" ADD CONSTRAINT "DreamFinalPick_settingId_fkey" FOREIGN KEY ("settingId") REFERENCES "DreamFinalsSetting"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DreamFinalPick" ADD CONSTRAINT "DreamFinalPick_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DreamFinalPick" ADD CONSTRAINT "DreamFinalPick_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostComment" ADD CONSTRAINT "PostComment_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostComment" ADD CONSTRAINT "PostComment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostLike" ADD CONSTRAINT "PostLike_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostLike" ADD CONSTRAINT "PostLike_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostCommentLike" ADD CONSTRAINT "PostCommentLike_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "PostComment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostCommentLike" ADD CONSTRAINT "PostCommentLike_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FirebaseToken" ADD CONSTRAINT "FirebaseToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRanking" ADD CONSTRAINT "InternalRanking_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRanking" ADD CONSTRAINT "InternalRanking_tournamentId_fkey" FOREIGN KEY ("tournamentId") REFERENCES "Tournament"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRanking" ADD CONSTRAINT "InternalRanking_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRankingMembership" ADD CONSTRAINT "InternalRankingMembership_rankingId_fkey" FOREIGN KEY ("rankingId") REFERENCES "InternalRanking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRankingMembership" ADD CONSTRAINT "InternalRankingMembership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRankingInvitation" ADD CONSTRAINT "InternalRankingInvitation_rankingId_fkey" FOREIGN KEY ("rankingId") REFERENCES "InternalRanking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRankingInvitation" ADD CONSTRAINT "InternalRankingInvitation_invitedUserId_fkey" FOREIGN KEY ("invitedUserId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InternalRankingInvitation" ADD CONSTRAINT "InternalRankingInvitation_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriviaQuestion" ADD CONSTRAINT "TriviaQuestion_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriviaAnswer" ADD CONSTRAINT "TriviaAnswer_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "TriviaQuestion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriviaAnswer" ADD CONSTRAINT "TriviaAnswer_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriviaSolution" ADD CONSTRAINT "TriviaSolution_questionId_fkey" FOREIGN KEY ("questionId") REFERENCES "TriviaQuestion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriviaSolution" ADD CONSTRAINT "TriviaSolution_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
