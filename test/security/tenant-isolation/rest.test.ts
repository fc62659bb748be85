// Tenant isolation of the REST routes: the matrix's REST rows (rest-cases.ts) on a server of their own.
import { REST_CASES } from './rest-cases.ts';
import { runMatrix } from './run-matrix.ts';

runMatrix(REST_CASES);
