// Path, query and body parsing for the REST routes: strict, with messages that name what is wrong.
import { RestInputError } from './errors.ts';

const INT_MAX = 2 ** 31 - 1;

export function positiveIntParam(value: string | undefined, name: string): number {
  if (value === undefined || !/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > INT_MAX) {
    throw new RestInputError(`path parameter ${name} must be a positive integer`);
  }
  return Number(value);
}

export function optionalIntQuery(query: Record<string, unknown>, name: string): number | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d{1,10}$/.test(v))
    throw new RestInputError(`query parameter ${name} must be an integer`);
  return Number(v);
}

export function optionalStringQuery(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new RestInputError(`query parameter ${name} must be given once`);
  return v;
}

export function rejectUnknownQuery(query: Record<string, unknown>, allowed: string[]) {
  const unknown = Object.keys(query).filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw new RestInputError(
      `unknown query parameter ${unknown.join(', ')} (allowed: ${allowed.join(', ') || 'none'})`,
    );
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') throw new RestInputError('a JSON body is required');
  if (typeof body !== 'object' || Array.isArray(body)) throw new RestInputError('the body must be a JSON object');
  return body as Record<string, unknown>;
}

const INVITATION_STRINGS = ['externalId', 'name', 'email', 'role'] as const;
const INVITATION_REFS = ['company', 'areaLevel1', 'areaLevel2', 'areaLevel3'] as const;

/** The PATCH /invitations/:id body (spec 4.4) as the GraphQL UpdateInvitationInput. */
export function invitationPatch(body: unknown): Record<string, unknown> {
  const b = jsonObject(body);
  const keys = Object.keys(b);
  if (keys.length === 0) throw new RestInputError('the body names no field to change');
  const allowed: readonly string[] = [...INVITATION_STRINGS, ...INVITATION_REFS];
  const unknown = keys.filter((k) => !allowed.includes(k));
  if (unknown.length) throw new RestInputError(`unknown field ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`);
  const input: Record<string, unknown> = {};
  for (const k of INVITATION_STRINGS) {
    if (!(k in b)) continue;
    if (typeof b[k] !== 'string' && !(b[k] === null && k !== 'role')) throw new RestInputError(`${k} must be a string`);
    input[k] = b[k];
  }
  for (const k of INVITATION_REFS) {
    if (!(k in b)) continue;
    const ref = b[k];
    if (ref === null && k !== 'company') {
      input[k] = null;
      continue;
    }
    const id = (ref as { id?: unknown } | null)?.id;
    if (
      !ref ||
      typeof ref !== 'object' ||
      Array.isArray(ref) ||
      !Number.isInteger(id) ||
      (id as number) < 1 ||
      (id as number) > INT_MAX
    ) {
      throw new RestInputError(`${k} must be an object with a positive integer id, like {"id": 3}`);
    }
    input[k] = { id };
  }
  return input;
}

export function loginBody(body: unknown): { email: string; password: string } {
  const b = jsonObject(body);
  if (typeof b.email !== 'string' || typeof b.password !== 'string')
    throw new RestInputError('email and password must be strings');
  return { email: b.email, password: b.password };
}
