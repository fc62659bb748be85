// The cost of an operation: how many objects its response may hold, estimated from the document, its variables and
// the size of the caller's company before anything runs. Depth, field and alias limits bound the document; only
// this bounds what lists multiply (a 171-byte cycle match > predictions > user > predictions > ... asks for
// billions of objects). Estimates can miss, so execution also counts the objects it resolves against the request's
// object budget (src/app/object-budget.ts; count-objects.ts counts them).
import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_TAKE } from '../domain/paging.ts';

/** What the estimates need to know about the company a request acts on. */
export interface CostSizes {
  /** Active users of the company (predictions per match, likes, members are bounded by it). */
  companyUsers: number;
}

type Args = Record<string, unknown>;
type Estimate = (args: Args, parentArgs: Args, sizes: CostSizes) => number;

const fixed =
  (n: number): Estimate =>
  () =>
    n;
const page: Estimate = (args) => (typeof args.take === 'number' ? args.take : DEFAULT_TAKE);
const companyUsers: Estimate = (_args, _parent, sizes) => sizes.companyUsers;

/**
 * How many items each list of objects may hold. Football lists come from the largest real tournaments (the
 * 2026 World Cup: 23 rounds, at most 16 matches in one; the benchmark's: 30 rounds of 10); paged lists use their
 * `take`; lists bounded by the company's people use its size. test/security/query-cost.test.ts fails for a list
 * of objects missing here, so a new one gets a deliberate estimate.
 */
export const LIST_ESTIMATES: Record<string, Estimate> = {
  'Query.companiesSearch': page,
  'Query.users': page,
  'Query.news': page,
  'Query.availableTournaments': page,
  'Query.triviaQuestions': page,
  'Mutation.reorderExtraFields': fixed(100),
  'Query.myNotifications': page,
  'Query.matches': page,
  'Query.myPredictions': page,
  'Query.myTournaments': fixed(3),
  'Query.myInternalRankings': fixed(10),
  'Query.myInternalRankingInvitations': fixed(10),
  'Query.postComments': fixed(50),
  'Query.bonusQuestions': fixed(20),
  // A ranking's page is sized by the `ranking` field's own take.
  'Ranking.entries': (_args, parentArgs, sizes) => page(parentArgs, {}, sizes),
  'TriviaRanking.entries': (_args, parentArgs, sizes) => page(parentArgs, {}, sizes),
  // An audit log's page, by the `auditLog` field's take.
  'AuditLog.entries': (_args, parentArgs, sizes) => page(parentArgs, {}, sizes),
  'AreaRanking.entries': (_args, parentArgs, sizes) => page(parentArgs, {}, sizes),
  // A company keeps a few seasons; each holds at most 20 tournaments (src/domain/seasons.ts).
  'Query.seasons': fixed(10),
  'Season.tournaments': fixed(20),
  'Company.tournaments': fixed(3),
  'Company.customTournaments': fixed(3),
  'Company.customTeams': fixed(50),
  'Company.areas': fixed(100),
  'Company.banners': fixed(5),
  'Company.dreamFinalsSettings': fixed(5),
  'Company.extraFields': fixed(10),
  // The required ones of the company's few extra fields.
  'PublicInvitation.requiredExtraFields': fixed(10),
  'Company.managedCompanies': fixed(100),
  'CompanyCompact.tournaments': fixed(3),
  'CompanyCompact.areas': fixed(100),
  'CompanyCompact.dreamFinalsSettings': fixed(5),
  'CompanyCompact.managerUsers': fixed(10),
  'Area.childrenAreas': fixed(20),
  'LocationScope.countries': fixed(10),
  'LocationScope.states': fixed(10),
  'Tournament.rounds': fixed(30),
  'Round.matches': fixed(16),
  // One per round of the company's tournaments, at most.
  'ScoringSettings.roundMultipliers': fixed(30),
  // One prediction per person and match: the company's size, or the caller's own one.
  'Match.predictions': (args, parentArgs, sizes) =>
    args.onlyMine === true ? 1 : companyUsers(args, parentArgs, sizes),
  'DreamFinalsSetting.myPicks': fixed(4),
  'InternalRanking.members': fixed(100),
  'Post.comments': fixed(50),
  'Post.likes': fixed(50),
  'PostComment.likes': fixed(20),
  // A person predicts at most every match of the company's tournaments.
  'User.predictions': fixed(500),
  'UserCompact.predictions': fixed(500),
  'User.posts': fixed(50),
  'User.extraFields': fixed(10),
  'User.firebaseTokens': fixed(5),
  'User.internalRankingMemberships': fixed(10),
  'User.triviaAnswers': fixed(100),
  'User.triviaSolutions': fixed(100),
  'UserCompact.managedCompanies': fixed(100),
  // One entry per round; its winners are one person unless people are level.
  'Query.roundWinners': fixed(30),
  'RoundWinners.winners': fixed(5),
  'MatchStatistics.topScores': (args) => (typeof args.take === 'number' ? args.take : 5),
  // Google and the company's own provider.
  'SignInMethods.providers': fixed(2),
};

/** A list of objects the table does not name (none today: the test keeps it so). */
const UNKNOWN_LIST = 20;

interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Args;
  sizes: CostSizes;
}

/** A document's fragments by name. */
export function documentFragments(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return fragments;
}

/** The estimated number of objects `operation`'s response may hold; Infinity past any number worth telling. */
export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Args,
  sizes: CostSizes,
): number {
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return 0;
  return selectionCost({ schema, fragments, variables, sizes }, operation.selectionSet, root, {});
}

function selectionCost(walk: Walk, set: SelectionSetNode, parent: GraphQLCompositeType, parentArgs: Args): number {
  const fields = levelFields(walk, set, parent, []);
  // Execution merges the copies of a field (same response key) and empties a list only when every copy carries
  // @cutoff (schema.ts): one copy without it makes all of them count.
  const uncut = new Set(fields.filter(([node]) => !hasCutoff(node)).map(([node]) => responseKey(node)));
  let total = 0;
  for (const [node, type] of fields) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    const field = type.getFields()[node.name.value];
    const cut = field && hasCutoff(node) && !uncut.has(responseKey(node)) && isListType(getNullableType(field.type));
    if (!cut) total += fieldCost(walk, field, node, type.name, parentArgs);
  }
  return total;
}

/** The fields a selection set asks for at its own level (fragments flattened), each with the type it is asked on. */
function levelFields(
  walk: Walk,
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
  out: Array<[FieldNode, GraphQLCompositeType]>,
) {
  for (const selection of set.selections) {
    if (!included(selection.directives, walk.variables)) continue;
    if (selection.kind === Kind.FIELD) {
      out.push([selection, parent]);
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : walk.fragments.get(selection.name.value);
    if (!fragment) continue;
    const condition = fragment.typeCondition ? walk.schema.getType(fragment.typeCondition.name.value) : parent;
    if (condition && isCompositeType(condition)) levelFields(walk, fragment.selectionSet, condition, out);
  }
  return out;
}

const responseKey = (node: FieldNode) => node.alias?.value ?? node.name.value;
export const hasCutoff = (node: FieldNode) => node.directives?.some((d) => d.name.value === 'cutoff') ?? false;

function fieldCost(
  walk: Walk,
  field: GraphQLField<unknown, unknown> | undefined,
  node: FieldNode,
  parentName: string,
  parentArgs: Args,
): number {
  if (!field || !node.selectionSet) return 0; // leaves and introspection's own fields cost nothing here
  const type = getNamedType(field.type);
  if (!isCompositeType(type)) return 0;
  let args: Args = {};
  try {
    args = getArgumentValues(field, node, walk.variables);
  } catch {
    // Bad arguments are refused by execution with their own error; estimate with none.
  }
  const items = isListType(getNullableType(field.type))
    ? Math.max(0, (LIST_ESTIMATES[`${parentName}.${field.name}`] ?? (() => UNKNOWN_LIST))(args, parentArgs, walk.sizes))
    : 1;
  return items * (1 + selectionCost(walk, node.selectionSet, type, args));
}

/** @skip / @include as execution reads them (a variable's value, or the literal). */
function included(directives: readonly DirectiveNode[] | undefined, variables: Args): boolean {
  for (const d of directives ?? []) {
    if (d.name.value !== 'skip' && d.name.value !== 'include') continue;
    const arg = d.arguments?.find((a) => a.name.value === 'if')?.value;
    const value =
      arg?.kind === Kind.BOOLEAN ? arg.value : arg?.kind === Kind.VARIABLE ? variables[arg.name.value] === true : false;
    if (d.name.value === 'skip' ? value : !value) return false;
  }
  return true;
}
