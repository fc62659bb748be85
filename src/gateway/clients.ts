// Who is calling: the client's address and the per-process throttles every request and WebSocket of that client
// shares (login, password reset, sign-up, account-link tokens).
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { ClientInfo } from '../graphql/context.ts';
import { newOutcome } from '../observability/request-outcome.ts';
import { loginThrottleFor } from '../security/login-throttle-for.ts';

/** Password-reset requests per client address and e-mail per window (ten times that per address). */
const RESET_REQUESTS_MAX = 3;
const RESET_REQUESTS_WINDOW_MS = 15 * 60_000;

export interface Clients {
  /** The client of an HTTP request. */
  ofRequest(request: FastifyRequest): ClientInfo;
  /** The client of a WebSocket, by the address it connected from. */
  ofAddress(ip: string): ClientInfo;
}

export function clientsOf(config: Config, db: Database): Clients {
  const loginThrottle = loginThrottleFor(db, 'login', config.rateLimit.loginMax, config.rateLimit.loginWindowMs);
  const resetThrottle = loginThrottleFor(db, 'reset', RESET_REQUESTS_MAX, RESET_REQUESTS_WINDOW_MS);
  const { registerMax, registerWindowMs, loginMax, loginWindowMs } = config.rateLimit;
  const registerThrottle = loginThrottleFor(db, 'register', registerMax, registerWindowMs);
  const tokenThrottle = loginThrottleFor(db, 'token', loginMax, loginWindowMs);
  // One subject for every start: its (address, subject) budget is the address's budget of starts.
  const ssoStartThrottle = loginThrottleFor(
    db,
    'ssoStart',
    config.rateLimit.ssoStartMax,
    config.rateLimit.ssoStartWindowMs,
  );
  const throttles = { loginThrottle, resetThrottle, registerThrottle, tokenThrottle, ssoStartThrottle };
  return {
    // IPv6 clients are keyed by their /64, as the general rate limit does: one host owns a whole /64. A client that
    // hung up while its request waited has no address any more (the socket is closed): those share one key.
    ofRequest: (request) => ({ ip: normalizeIP(request.ip ?? 'unknown'), ...throttles, outcome: request.outcome }),
    ofAddress: (ip) => ({ ip, ...throttles, outcome: newOutcome() }),
  };
}
