// Predictions are versioned per owner bucket, `Prediction@<userId % 256>`, besides their table, so one player's
// prediction does not throw away every other player's cached responses.
// Why: docs/decisions/0007-prediction-owner-buckets.md.
import { Model, type Column } from '../../db/typed-sql.ts';

/** The owner column of each table whose versions are also held per owner. */
export const OWNED_TABLES: Readonly<Record<string, string>> = {
  [Model.Prediction]: 'userId' satisfies Column<typeof Model.Prediction>,
};

export const OWNER_BUCKETS = 256;

/** The version counter an owner's rows of `table` move. */
export function ownerCounter(table: string, ownerId: number): string {
  return `${table}@${((ownerId % OWNER_BUCKETS) + OWNER_BUCKETS) % OWNER_BUCKETS}`;
}

/** The table a version counter belongs to (an owner's bucket versions rows of its table). */
export function tableOfCounter(counter: string): string {
  const at = counter.indexOf('@');
  return at < 0 ? counter : counter.slice(0, at);
}
