// Tenant isolation of the root Mutation fields: the matrix's mutation rows (mutation-cases.ts) on a server of their
// own, so that the writes they let through change nothing another face's rows look at.
import { MUTATION_CASES } from './mutation-cases.ts';
import { runMatrix } from './run-matrix.ts';

runMatrix(MUTATION_CASES);
