// The audit trail's rules, pure: what an entry may hold and how a reason is checked. Entries are written by the
// operations that make the changes (src/app/audit.ts), read by auditLog.
import { textInput } from './inputs.ts';

export const AUDIT_KINDS = [
  'PREDICTION_ENTERED',
  'RESULT_SET',
  'SCORING_SETTINGS_CHANGED',
  'ROLE_CHANGED',
  'COMPANY_SETTINGS_CHANGED',
  'USER_DEACTIVATED',
  'USER_REACTIVATED',
  'USER_DELETED',
] as const;
export type AuditKindName = (typeof AUDIT_KINDS)[number];

/** Long enough for a sentence or two and a ticket number; an entry is not a document. */
export const MAX_AUDIT_REASON = 500;

/** A reason is required where one is asked for: trimmed, 1 to MAX_AUDIT_REASON characters (BAD_USER_INPUT). */
export const auditReason = (reason: string | null | undefined): string => textInput(reason, 'reason', MAX_AUDIT_REASON);

/** Keys never copied into an entry, at any depth: password hashes, tokens and other secrets. */
const SECRET_KEY = /password|token|secret|hash/i;

export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };

/**
 * A value as an entry stores it (its before or after): JSON only (dates as ISO text, undefined left out) and no
 * key that names a secret, whatever the caller passed in.
 */
export function auditValues(value: unknown): AuditValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(auditValues);
  if (typeof value === 'object') {
    const out: Record<string, AuditValue> = {};
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEY.test(key) || v === undefined) continue;
      out[key] = auditValues(v);
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return String(value);
}

/** The fields of `data` that differ from `current`, as they were and as they are (for a settings change). */
export function changedFields(
  current: Record<string, unknown>,
  data: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (JSON.stringify(auditValues(current[key])) === JSON.stringify(auditValues(value))) continue;
    before[key] = current[key] ?? null;
    after[key] = value;
  }
  return { before, after };
}
