// Runs before every test file (vitest.config.ts): code that hashes passwords outside a server (the demo seed,
// unit tests) uses the suite's cost, PASSWORD_HASH_COST from vitest.config.ts, not the production default; and the
// password work limits go back to their defaults, which a server an earlier file started in this worker may have
// changed (PASSWORD_HASH_CONCURRENCY and the queue shares are per process).
import { DEFAULT_PASSWORD_WORK, setPasswordHashCost, setPasswordWorkLimits } from '../../src/auth/passwords.ts';

setPasswordHashCost(Number(process.env.PASSWORD_HASH_COST ?? 14));
setPasswordWorkLimits(DEFAULT_PASSWORD_WORK);
