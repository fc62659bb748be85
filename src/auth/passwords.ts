// Password hashing (scrypt, a memory-hard KDF from node:crypto) and the company password policies.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1, keyLen: 32 };

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyLen: number): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 64 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, parameters stored so they can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS.N, PARAMS.r, PARAMS.p, PARAMS.keyLen);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, N, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(N), Number(r), Number(p), expected.length);
  return timingSafeEqual(key, expected);
}

export type PasswordPolicyName = 'base' | 'strong' | 'nist';

// NIST SP 800-63B asks to refuse passwords known to be common; a short list of the worst offenders.
const COMMON = new Set([
  'password', 'password1', 'password123', '12345678', '123456789', '1234567890', 'qwertyuiop', 'qwerty123',
  'iloveyou', 'football', 'futbol123', 'abc12345', 'letmein1', 'welcome1', 'admin123', 'prode2026',
]);

/** Returns null when the password satisfies the policy, else the reason in one sentence. */
export function passwordPolicyViolation(password: string, policy: PasswordPolicyName): string | null {
  if (password.length > 128) return 'password must be at most 128 characters';
  switch (policy) {
    case 'base':
      return password.length >= 8 ? null : 'password must be at least 8 characters';
    case 'strong':
      if (password.length < 10) return 'password must be at least 10 characters';
      if (!/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/\d/.test(password) || !/[^A-Za-z0-9]/.test(password)) {
        return 'password must mix lower and upper case letters, digits and symbols';
      }
      return null;
    case 'nist':
      if ([...password].length < 8) return 'password must be at least 8 characters';
      if (COMMON.has(password.toLowerCase())) return 'password is too common';
      if (/^(.)\1+$/.test(password)) return 'password must not repeat one character';
      return null;
  }
}
