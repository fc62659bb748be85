// Access and invitation tokens (src/auth/tokens.ts) with each secret's key imported once: a token verifies under
// the secret that signed it and under no other, however many secrets one process has seen.
import { describe, expect, it } from 'vitest';
import {
  signAccessToken,
  signInvitationToken,
  TokenError,
  verifyAccessToken,
  verifyInvitationToken,
} from '../../src/auth/tokens.ts';
import { signJwt } from '../helpers/tokens.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const claims = { userId: 7, companyId: 3, role: 'player', tokenVersion: 2 };

describe('tokens under several secrets in one process', () => {
  it('verify under their own secret only, in any order of use', async () => {
    const byA = await signAccessToken(claims, A, 60);
    const byB = await signAccessToken({ ...claims, userId: 8 }, B, 60);
    for (let i = 0; i < 2; i++) {
      await expect(verifyAccessToken(byA, A)).resolves.toEqual(claims);
      await expect(verifyAccessToken(byB, B)).resolves.toEqual({ ...claims, userId: 8 });
      await expect(verifyAccessToken(byA, B)).rejects.toThrow(new TokenError('token is invalid'));
      await expect(verifyAccessToken(byB, A)).rejects.toThrow(new TokenError('token is invalid'));
    }
    const invitation = await signInvitationToken(12, A);
    expect(await verifyInvitationToken(invitation, A)).toBe(12);
    expect(await verifyInvitationToken(invitation, B)).toBeNull();
  });

  it('refuse a token concurrently with the key being imported for the first time', async () => {
    const C = 'c'.repeat(40);
    const token = await signAccessToken(claims, A, 60);
    const results = await Promise.allSettled([verifyAccessToken(token, C), verifyAccessToken(token, C)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('report an empty secret as an invalid token, not a crash, and keep working afterwards', async () => {
    const token = await signAccessToken(claims, A, 60);
    await expect(verifyAccessToken(token, '')).rejects.toThrow(new TokenError('token is invalid'));
    await expect(verifyAccessToken(token, A)).resolves.toEqual(claims);
  });
});

describe('the token version claim (ver)', () => {
  const access = (ver?: unknown) =>
    signJwt({ cid: 3, role: 'player', typ: 'access', ...(ver === undefined ? {} : { ver }) }, { secret: A, sub: '7' });

  it('is 0 in a token signed before it existed, and refused when it is no version', async () => {
    await expect(verifyAccessToken(await access(), A)).resolves.toEqual({ ...claims, tokenVersion: 0 });
    await expect(verifyAccessToken(await access(5), A)).resolves.toEqual({ ...claims, tokenVersion: 5 });
    for (const ver of [-1, 1.5, '2', null, 2 ** 31]) {
      await expect(verifyAccessToken(await access(ver), A)).rejects.toThrow(
        new TokenError('token claims are malformed'),
      );
    }
  });
});
