// Password work on behalf of a client (src/app/password-client.ts): each attempt is counted before any work, past
// the limit it is refused with RATE_LIMITED, and what guessed nothing (or a link that opened something) is given back.
import { describe, expect, it } from 'vitest';
import { countAttempt, counted, passwordWorkFor } from '../../src/app/password-client.ts';
import { badInput, notFound } from '../../src/domain/errors.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';

/** A client at its own address with a throttle of `max` attempts a minute. */
const client = (max: number) => ({ ip: '203.0.113.9', throttle: new MemoryLoginThrottle(max, 60_000) });

describe('password client', () => {
  it('countAttempt refuses past the limit with RATE_LIMITED and a wait, naming what it counts', async () => {
    const c = client(2);
    await countAttempt(c, 'a@demo.test', 'reset requests');
    await countAttempt(c, 'a@demo.test', 'reset requests');
    await expect(countAttempt(c, 'a@demo.test', 'reset requests')).rejects.toMatchObject({
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) },
      message: expect.stringContaining('too many reset requests'),
    });
    // Another subject from the same address has its own count (the address's is ten times wider).
    await expect(countAttempt(c, 'b@demo.test', 'reset requests')).resolves.toMatchObject({
      retryAfterSeconds: null,
    });
  });

  it('counted gives back a success when told to, and keeps it counted otherwise', async () => {
    const givenBack = client(1);
    for (let i = 0; i < 3; i++) await counted(givenBack, 'link', 'links', 'given back', async () => 'opened');
    await expect(counted(givenBack, 'link', 'links', 'given back', async () => 'opened')).resolves.toBe('opened');

    const kept = client(1);
    await counted(kept, 'x@demo.test', 'sign-ups', 'counted', async () => 'made');
    await expect(counted(kept, 'x@demo.test', 'sign-ups', 'counted', async () => 'made')).rejects.toMatchObject({
      extensions: { code: 'RATE_LIMITED' },
    });
  });

  it('a refused input or a database failure is given back; a refusal about the link stays counted', async () => {
    const c = client(1);
    const refuse = (err: Error) => () => Promise.reject(err);
    await expect(counted(c, 's', 'tries', 'counted', refuse(badInput('too short', 'password')))).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
    });
    await expect(counted(c, 's', 'tries', 'counted', refuse(new Error('database away')))).rejects.toThrow(
      'database away',
    );
    // Neither counted: the one attempt allowed is still there, and a NOT_FOUND uses it up.
    await expect(counted(c, 's', 'tries', 'counted', refuse(notFound('link')))).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    await expect(counted(c, 's', 'tries', 'counted', async () => 'late')).rejects.toMatchObject({
      extensions: { code: 'RATE_LIMITED' },
    });
  });

  it('passwordWorkFor hashes and verifies in the lane of the company named, or of none', async () => {
    const work = passwordWorkFor(42, '203.0.113.9');
    const hash = await work.hash('a password of ours');
    expect(await work.verify('a password of ours', hash)).toBe(true);
    expect(await passwordWorkFor(null, '203.0.113.9').verify('another one', hash)).toBe(false);
  });
});
