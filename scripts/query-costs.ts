// `npm run graphql:costs [-- --users 20,5000,100000]`: the estimated cost (src/graphql/cost.ts) of every stored
// operation (REST routes, benchmark workloads, test documents) for companies of those sizes, next to
// GRAPHQL_MAX_COST, so a change of estimates or limits shows what it refuses.
import { parseArgs } from 'node:util';
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { loadConfig } from '../src/config.ts';
import { documentFragments, operationCost } from '../src/graphql/cost.ts';
import { formatCount } from '../src/domain/errors.ts';
import * as documents from '../src/graphql/generated/operations.ts';
import { getSchema } from '../src/graphql/schema.ts';

const { values } = parseArgs({ options: { users: { type: 'string', default: '20,5000,100000' } } });
const sizes = values.users!.split(',').map((n) => Number(n.trim()));
if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) {
  console.error('--users takes positive integers separated by commas, e.g. --users 20,5000');
  process.exit(2);
}
const maxCost = loadConfig(process.env, () => {}).graphql.maxCost;
// Variables the REST routes pass at most (take is capped at 100) and the benchmark passes.
const VARIABLES: Record<string, Record<string, unknown>> = {
  RestCompaniesSearch: { take: 10 },
  BenchRanking: { t: 1 },
};

const schema = getSchema();
const rows: string[][] = [];
for (const [name, value] of Object.entries(documents)) {
  if (!name.endsWith('Document')) continue;
  const doc = value as DocumentNode;
  const fragments = documentFragments(doc);
  const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const op = operation.name?.value ?? name;
  const costs = sizes.map((companyUsers) =>
    operationCost(schema, operation, fragments, VARIABLES[op] ?? {}, { companyUsers }),
  );
  rows.push([op, ...costs.map((c) => `${formatCount(c)}${c > maxCost ? ' (refused)' : ''}`)]);
}
const header = ['operation', ...sizes.map((n) => `${n.toLocaleString('en-US')} users`)];
console.log(`GRAPHQL_MAX_COST = ${formatCount(maxCost)}\n`);
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
