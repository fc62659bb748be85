// Runs before every test file (vitest.config.ts): code that hashes passwords outside a server (the demo seed,
// unit tests) uses the suite's cost, PASSWORD_HASH_COST from vitest.config.ts, not the production default.
import { setPasswordHashCost } from '../../src/auth/passwords.ts';

setPasswordHashCost(Number(process.env.PASSWORD_HASH_COST ?? 14));
