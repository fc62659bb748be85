// Tenant isolation of the operations operators, admins and people run the platform with (operator-cases.ts), on a
// server of their own.
import { OPERATOR_CASES } from './operator-cases.ts';
import { runMatrix } from './run-matrix.ts';

runMatrix(OPERATOR_CASES);
