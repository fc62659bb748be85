// Tenant isolation of the root Subscription fields, over WebSocket: the matrix's subscription rows on a server of
// their own.
import { SUBSCRIPTION_CASES } from './subscription-cases.ts';
import { runMatrix } from './run-matrix.ts';

runMatrix(SUBSCRIPTION_CASES);
