// Sessions: an access token is good while its `ver` claim is the user's tokenVersion (src/auth/request-auth.ts
// checks it against the user row every request reads). Raising the version ends every session signed before:
// a password change or reset, a deactivation, a deletion, a role change and logoutEverywhere do it in the write
// that warrants it. The row is read again after any write to users, on every replica (the auth-row cache holds
// rows under the table's version, src/engine/cache/auth-row-cache.ts), so the next request of an old token is refused.
import type { RequestScope } from './scope.ts';

/** Spread into the user's update `data`: the write that makes it ends every session signed before. */
export const REVOKE_SESSIONS = { tokenVersion: { increment: 1 } } as const;

/**
 * After the write committed: the user's open subscriptions, on every replica, read their caller again now (and end
 * with UNAUTHENTICATED) instead of at their next periodic read.
 */
export function announceRevocation(scope: RequestScope, userId: number): void {
  scope.live.publish({ kind: 'sessions', userId });
}

/** Ends every session of the caller, this one included: each device signs in again. */
export async function logoutEverywhere(scope: RequestScope): Promise<true> {
  const viewer = scope.requireViewer();
  await scope.write((tx) => tx.user.update({ where: { id: viewer.id }, data: REVOKE_SESSIONS }));
  announceRevocation(scope, viewer.id);
  return true;
}
