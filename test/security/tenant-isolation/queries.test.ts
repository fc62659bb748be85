// Tenant isolation of the root Query fields: the matrix's query rows (query-cases.ts) on a server of their own.
import { QUERY_CASES } from './query-cases.ts';
import { runMatrix } from './run-matrix.ts';

runMatrix(QUERY_CASES);
