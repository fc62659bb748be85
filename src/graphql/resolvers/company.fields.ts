// Relation and JSON-backed fields of both Company forms. Lists come from per-request loaders (one statement
// per level, whatever the number of companies).
import { mayListManagedCompanies } from '../../domain/roles.ts';
import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import {
  banners,
  companyNotificationSettings,
  featureSettings,
  googleServicesConfig,
  purchasedGames,
  stringArray,
} from '../../domain/defaults.ts';
import { readScoringSettings, shownSettings } from '../../domain/scoring-settings.ts';
import type { Context } from '../context.ts';
import type { CompanyRow } from '../../loaders/registry.ts';
import { JSONObject } from '../scalars.ts';
import { Area } from '../types/area.ts';
import { Company, CompanyCompact } from '../types/company.ts';
import { CompanyExtraField } from '../types/extra-field.ts';
import { DreamFinalsSetting, Team, Tournament } from '../types/football.ts';
import {
  Banner,
  BannerSlot,
  CompanyNotificationSettings,
  FeatureSettings,
  GoogleServicesConfig,
  PurchasedGames,
} from '../types/settings.ts';
import { ScoringSettings } from '../types/scoring-settings.ts';
import { CompanySso } from '../types/sso.ts';
import { companySso } from '../../app/sso.ts';
import { UserCompact } from '../types/user.ts';

/** Marks a company row reached as another company's `resellerCompany`: its compact form returns no lists. */
const RESELLER_VIEW = Symbol('resellerView');
type CompactRow = CompanyRow & { [RESELLER_VIEW]?: true };
const cut = (c: CompactRow) => c[RESELLER_VIEW] === true;

/** Managed companies are shown to resellers and managers only. */
function managedCompanies(company: CompanyRow, ctx: Context) {
  if (!company.isReseller || !mayListManagedCompanies(ctx.scope.caller, company.id)) return null;
  return ctx.scope.loaders.managedCompanies.load(company.id);
}

/**
 * The fields both forms of a company resolve alike, for `form`. A factory: TypeGraphQL moves a base class's field
 * resolvers to the class extending it, so each form extends its own copy. Only compact rows are ever marked as a
 * reseller's view (resellerCompany returns the compact form), so the full form always returns its lists.
 */
function sharedCompanyFields(form: ClassType) {
  @Resolver(() => form)
  abstract class SharedCompanyFields {
    @FieldResolver(() => [String], { description: 'Cut off: always empty; query users through their own operations.' })
    users() {
      return [];
    }
    @FieldResolver(() => [String], { description: 'Cut off: always empty.' }) invitations() {
      return [];
    }
    @FieldResolver(() => [String], { description: 'Cut off: always empty.' }) news() {
      return [];
    }
    @FieldResolver(() => [Area], {
      description:
        "The company's areas, every level; [] when none (and where the " +
        "company is reached as another's resellerCompany).",
    })
    areas(@Root() c: CompactRow, @Ctx() ctx: Context) {
      return cut(c) ? [] : ctx.scope.loaders.areasByCompany.load(c.id);
    }
    @FieldResolver(() => [Tournament], {
      description:
        'Tournaments the company plays (entered and its own custom ones); ' +
        "[] when none (and as another's resellerCompany).",
    })
    tournaments(@Root() c: CompactRow, @Ctx() ctx: Context) {
      return cut(c) ? [] : ctx.scope.loaders.tournamentsByCompany.load(c.id);
    }
    @FieldResolver(() => [DreamFinalsSetting], {
      description: "Its dream finals games; [] when none (and as another's " + 'resellerCompany).',
    })
    dreamFinalsSettings(@Root() c: CompactRow, @Ctx() ctx: Context) {
      return cut(c) ? [] : ctx.scope.loaders.dreamFinalsByCompany.load(c.id);
    }
    @FieldResolver(() => [String], {
      description: 'Rankings over several rounds, each like "Group stage:1,2,3"; [] ' + 'when none.',
    })
    combinedRoundsRankingDefinitions(@Root() c: CompanyRow) {
      return stringArray(c.combinedRoundsRankingDefinitions);
    }
    @FieldResolver(() => [String], {
      description: 'RSS feed URLs shown to its people; null when none set.',
      nullable: true,
    })
    rssFeeds(@Root() c: CompanyRow) {
      return c.rssFeeds == null ? null : stringArray(c.rssFeeds);
    }
  }
  return SharedCompanyFields;
}

@Resolver(() => Company)
export class CompanyFields extends sharedCompanyFields(Company) {
  @FieldResolver(() => CompanySso, {
    description:
      'Its own OpenID Connect provider (updateCompanySso), without the secret: to its admins, its reseller and ' +
      'managers; null to anyone else and when none is set.',
    nullable: true,
  })
  sso(@Root() c: CompanyRow, @Ctx() ctx: Context) {
    return companySso(ctx.scope, c);
  }
  @FieldResolver(() => [Banner], { description: 'Its banners; null when none are set.', nullable: true }) banners(
    @Root() c: CompanyRow,
  ) {
    return banners(c.banners);
  }
  @FieldResolver(() => [Team], {
    description: "Teams of the company's own, for its custom tournaments; [] when " + 'none.',
    nullable: true,
  })
  customTeams(@Root() c: CompanyRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.customTeamsByCompany.load(c.id);
  }
  @FieldResolver(() => [Tournament], { description: "Tournaments of the company's own; [] when none.", nullable: true })
  customTournaments(@Root() c: CompanyRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.customTournamentsByCompany.load(c.id);
  }
  @FieldResolver(() => [CompanyExtraField], {
    description: 'Definitions of the extra fields its people fill in, in order.',
  })
  extraFields(@Root() c: CompanyRow, @Ctx() ctx: Context) {
    return ctx.scope.loaders.extraFieldsByCompany.load(c.id);
  }
  @FieldResolver(() => FeatureSettings, { description: 'What areas, the community and rankings show.' })
  featureSettings(@Root() c: CompanyRow) {
    return featureSettings(c.featureSettings);
  }
  @FieldResolver(() => GoogleServicesConfig, { description: 'Google services of its site.' }) googleServicesConfig(
    @Root() c: CompanyRow,
  ) {
    return googleServicesConfig(c.googleServicesConfig);
  }
  @FieldResolver(() => [CompanyCompact], {
    description:
      'Companies this reseller manages: to managers and to users with ' +
      'the reseller role of this company; null to anyone else and for ' +
      'companies that are not resellers.',
    nullable: true,
  })
  managedCompanies(@Root() c: CompanyRow, @Ctx() ctx: Context) {
    return managedCompanies(c, ctx);
  }
  @FieldResolver(() => CompanyNotificationSettings, {
    description: 'Notification types the company turns off, and when reminders go out.',
  })
  notificationSettings(@Root() c: CompanyRow) {
    return companyNotificationSettings(c.notificationSettings);
  }
  @FieldResolver(() => ScoringSettings, { description: 'Its game rules: points, deadlines, jokers and ties.' })
  scoringSettings(@Root() c: CompanyRow) {
    return shownSettings(readScoringSettings(c.scoringSettings));
  }
  @FieldResolver(() => PurchasedGames, { description: 'Which games the company bought.' }) purchasedGames(
    @Root() c: CompanyRow,
  ) {
    return purchasedGames(c.purchasedGames);
  }
  @FieldResolver(() => CompanyCompact, {
    nullable: true,
    description:
      'The reseller managing this company, compact form, with its lists cut off (areas, tournaments, ' +
      'dreamFinalsSettings, users, invitations, news: []; extraFields: {}; managerUsers: null): every user of the ' +
      "company and anyone holding an invitation link sees it, so it shows the reseller's name and branding only.",
  })
  async resellerCompany(@Root() c: CompanyRow, @Ctx() ctx: Context) {
    if (c.resellerCompanyId == null) return null;
    const reseller = await ctx.scope.loaders.company.load(c.resellerCompanyId);
    // A copy: the loader's row is shared with the rest of the request, where the lists are not cut.
    return reseller && { ...reseller, [RESELLER_VIEW]: true };
  }
  @FieldResolver(() => String, { nullable: true, description: 'A secret: always null.' }) skipLoginToken() {
    return null;
  }
  @FieldResolver(() => [String], { description: 'Language codes the site offers, e.g. es, en, pt.' })
  supportedLanguages(@Root() c: CompanyRow) {
    return stringArray(c.supportedLanguages);
  }
}

const slot = (c: CompanyRow, type: string) => banners(c.banners).find((b) => b.type === type) ?? null;

@Resolver(() => CompanyCompact)
export class CompanyCompactFields extends sharedCompanyFields(CompanyCompact) {
  @FieldResolver(() => BannerSlot, { description: 'The banner on top of the page; null when none.', nullable: true })
  superiorBanner(@Root() c: CompanyRow) {
    return slot(c, 'superior');
  }
  @FieldResolver(() => BannerSlot, {
    description: 'The banner in the middle of the page; null when none.',
    nullable: true,
  })
  middleBanner(@Root() c: CompanyRow) {
    return slot(c, 'middle');
  }
  @FieldResolver(() => BannerSlot, {
    description: 'The banner at the side of the page; null when none.',
    nullable: true,
  })
  sideBanner(@Root() c: CompanyRow) {
    return slot(c, 'side');
  }
  @FieldResolver(() => JSONObject, { description: 'Extra-field definitions keyed by field name.' })
  async extraFields(@Root() c: CompactRow, @Ctx() ctx: Context) {
    if (cut(c)) return {};
    const defs = await ctx.scope.loaders.extraFieldsByCompany.load(c.id);
    return Object.fromEntries(defs.map((d) => [d.name as string, d]));
  }
  @FieldResolver(() => [UserCompact], {
    nullable: true,
    description: "The company's admins (null where the company is reached as another company's resellerCompany).",
  })
  managerUsers(@Root() c: CompactRow, @Ctx() ctx: Context) {
    return cut(c) ? null : ctx.scope.loaders.adminsByCompany.load(c.id);
  }
}
