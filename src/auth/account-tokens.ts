// Single-use tokens sent by e-mail (password reset, e-mail verification). The token is 256 random bits, shown only
// in the e-mail (or, for a new operator, printed once); the database holds its SHA-256, so a read of the database
// opens no account. Using one is a conditional UPDATE: of two concurrent uses, one wins.
import { createHash, randomBytes } from 'node:crypto';
import type { Tx } from '../db/client.ts';
import type { AccountTokenPurpose } from '../db/enums.ts';

export const hashAccountToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues a token for `userId`; any earlier unused one of the same purpose stops working. */
export async function issueAccountToken(
  tx: Tx,
  userId: number,
  purpose: AccountTokenPurpose,
  now: Date,
  ttlMs: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.accountToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: now } });
  await tx.accountToken.create({
    data: { userId, purpose, tokenHash: hashAccountToken(token), expiresAt: new Date(now.getTime() + ttlMs) },
  });
  return token;
}

/** The user a still usable token belongs to, or null (unknown, used, expired, or of another purpose). */
export async function findAccountToken(tx: Tx, token: string, purpose: AccountTokenPurpose, now: Date) {
  const row = await tx.accountToken.findUnique({ where: { tokenHash: hashAccountToken(token) } });
  return row && row.purpose === purpose && !row.usedAt && row.expiresAt > now ? row : null;
}

/** Marks the token used; false when it was used (or expired) meanwhile. */
export async function consumeAccountToken(tx: Tx, id: number, now: Date): Promise<boolean> {
  const used = await tx.accountToken.updateMany({
    where: { id, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return used.count === 1;
}
