// The audit trail's rules, pure: what an entry's before and after may hold, and the reason a correction needs.
import { describe, expect, it } from 'vitest';
import { auditReason, auditValues, changedFields, MAX_AUDIT_REASON } from '../../src/domain/audit.ts';

describe('auditValues', () => {
  it('keeps JSON, writes dates as ISO text, and drops every key that names a secret, at any depth', () => {
    const at = new Date('2030-06-11T19:00:00Z');
    const row = {
      name: 'Dana',
      role: 'admin',
      passwordHash: 'scrypt$abc',
      recoverPasswordToken: 'rpt',
      skipLoginToken: 'slt',
      deletedAt: at,
      nested: { apiSecret: 'x', firebaseTokens: ['t'], kept: [1, { refreshToken: 'y', ok: true }] },
      missing: undefined,
    };
    expect(auditValues(row)).toEqual({
      name: 'Dana',
      role: 'admin',
      deletedAt: '2030-06-11T19:00:00.000Z',
      nested: { kept: [1, { ok: true }] },
    });
    expect(auditValues(null)).toBeNull();
  });
});

describe('changedFields', () => {
  it('lists only the fields that change, as they were and as they are', () => {
    const current = { loginText: 'Hi', theme: { primary: '#000' }, maxUsersAmount: 10 };
    const data = { loginText: 'Hello', theme: { primary: '#000' }, supportEmail: 'help@demo.test' };
    expect(changedFields(current, data)).toEqual({
      before: { loginText: 'Hi', supportEmail: null },
      after: { loginText: 'Hello', supportEmail: 'help@demo.test' },
    });
  });
});

describe('auditReason', () => {
  it('is required, trimmed and bounded', () => {
    expect(auditReason('  late form  ')).toBe('late form');
    for (const bad of [null, undefined, '', '   ', 'x'.repeat(MAX_AUDIT_REASON + 1)])
      expect(() => auditReason(bad)).toThrow(
        expect.objectContaining({ extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) }),
      );
    expect(auditReason('x'.repeat(MAX_AUDIT_REASON))).toHaveLength(MAX_AUDIT_REASON);
  });
});
