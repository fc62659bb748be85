// Remembers an operation's estimated cost per request shape, so a request asked again (every cache hit, every REST
// call of a stored operation) is not walked again. Why: docs/decisions/0018-cost-before-objects-during.md.

/** Estimates remembered (the latest computed; the oldest out first), and the longest variables' JSON that is. */
const MEMO_ENTRIES = 2000;
const MEMO_MAX_VARIABLES = 2048;

/** What the estimate depends on: the document, the operation, its variables and the company's size. */
export interface CostShape {
  queryHash: string;
  operationName: string | undefined;
  companyUsers: number;
  variables: Record<string, unknown> | undefined;
}

// The same shape as `CostMemo` in src/graphql/cost-plugin.ts: the engine imports no face, so both declare it, and
// the type checker holds them together where src/gateway hands this memo to the plugin.
export interface CostMemo {
  /** The shape's key; null for variables too large to key by (or that JSON cannot walk): those are walked each time. */
  key(shape: CostShape): string | null;
  get(key: string): number | undefined;
  set(key: string, cost: number): void;
}

/**
 * Variables that write the same JSON coerce to the same values, or all but one of them are refused by execution's
 * own coercion (NaN writes as null), so the JSON keys them.
 */
export function costMemo(): CostMemo {
  const memo = new Map<string, number>();
  return {
    key({ queryHash, operationName, companyUsers, variables }) {
      let json: string;
      try {
        json = JSON.stringify(variables ?? {});
      } catch {
        return null;
      }
      if (json.length > MEMO_MAX_VARIABLES) return null;
      return `${queryHash}|${operationName ?? ''}|${companyUsers}|${json}`;
    },
    get: (key) => memo.get(key),
    set(key, cost) {
      memo.set(key, cost);
      if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
    },
  };
}
