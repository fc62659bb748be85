// Path, query and body parsing for the REST routes: strict, with messages in REST words (path parameter, query
// parameter, body field, as docs/rest.md names them) rather than the GraphQL variables they become.
import { MAX_SEARCH_LENGTH } from '../app/companies.ts';
import { Role } from '../db/enums.ts';
import { MAX_TAKE } from '../domain/paging.ts';
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
  if (Array.isArray(v)) throw new RestInputError(`query parameter ${name} must be given once`);
  if (typeof v !== 'string' || !/^-?\d{1,10}$/.test(v) || Math.abs(Number(v)) > INT_MAX)
    throw new RestInputError(`query parameter ${name} must be an integer`);
  return Number(v);
}

export function optionalStringQuery(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new RestInputError(`query parameter ${name} must be given once`);
  if (v.includes('\0')) throw new RestInputError(`query parameter ${name} must not contain a NUL character`);
  return v;
}

/**
 * GET /companies/search's parameters, held to the bounds companiesSearch applies (docs/design.md, "Paging") before
 * anything runs: the query's cost is estimated from take, so an unchecked take=1000 would be refused as too costly,
 * naming GraphQL remedies a REST client has no use for.
 */
export function companiesSearchQuery(query: Record<string, unknown>) {
  const skip = optionalIntQuery(query, 'skip');
  const take = optionalIntQuery(query, 'take');
  const search = optionalStringQuery(query, 'search');
  if (skip !== undefined && skip < 0) throw new RestInputError('query parameter skip must be an integer >= 0');
  if (take !== undefined && (take < 1 || take > MAX_TAKE))
    throw new RestInputError(`query parameter take must be an integer from 1 to ${MAX_TAKE}`);
  if (search !== undefined && search.trim().length > MAX_SEARCH_LENGTH)
    throw new RestInputError(`query parameter search must be at most ${MAX_SEARCH_LENGTH} characters`);
  return { skip, take, search };
}

/** Every route refuses a query parameter it does not take (docs/rest.md), naming it and the ones it takes. */
export function rejectUnknownQuery(query: unknown, allowed: readonly string[]) {
  const unknown = Object.keys((query ?? {}) as object).filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw new RestInputError(
      `unknown query parameter ${unknown.map((k) => k || '""').join(', ')} (${
        allowed.length ? `this route takes ${allowed.join(', ')}` : 'this route takes none'
      })`,
    );
}

/** A body in any type but JSON is refused with 415 (Fastify itself refuses the types it has no parser for). */
export function requireJsonContentType(contentType: string | undefined) {
  if (contentType !== undefined && !/^application\/json\s*(;|$)/i.test(contentType))
    throw new RestInputError('unsupported content type: send application/json', 415, 'UNSUPPORTED_MEDIA_TYPE');
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') throw new RestInputError('a JSON body is required');
  if (typeof body !== 'object' || Array.isArray(body)) throw new RestInputError('the body must be a JSON object');
  return body as Record<string, unknown>;
}

const INVITATION_STRINGS = ['externalId', 'name', 'email', 'role'] as const;
const ROLES: readonly string[] = Object.values(Role);
const INVITATION_REFS = ['company', 'areaLevel1', 'areaLevel2', 'areaLevel3'] as const;

/** The PATCH /invitations/:id body (spec 4.4) as the GraphQL UpdateInvitationInput. */
export function invitationPatch(body: unknown): Record<string, unknown> {
  const b = jsonObject(body);
  const keys = Object.keys(b);
  if (keys.length === 0) throw new RestInputError('the body names no field to change');
  const allowed: readonly string[] = [...INVITATION_STRINGS, ...INVITATION_REFS];
  const unknown = keys.filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw new RestInputError(`unknown body field ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`);
  const input: Record<string, unknown> = {};
  for (const k of INVITATION_STRINGS) {
    if (!(k in b)) continue;
    if (typeof b[k] !== 'string' && !(b[k] === null && k !== 'role'))
      throw new RestInputError(`body field ${k} must be a string`);
    if (typeof b[k] === 'string' && (b[k] as string).includes('\0'))
      throw new RestInputError(`body field ${k} must not contain a NUL character`);
    input[k] = b[k];
  }
  if (typeof input.role === 'string' && !ROLES.includes(input.role))
    throw new RestInputError(`body field role must be one of ${ROLES.join(', ')}`);
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
      throw new RestInputError(`body field ${k} must be an object with a positive integer id, like {"id": 3}`);
    }
    input[k] = { id };
  }
  return input;
}

export function loginBody(body: unknown): { email: string; password: string } {
  const b = jsonObject(body);
  for (const k of ['email', 'password'] as const) {
    if (typeof b[k] !== 'string') throw new RestInputError(`body field ${k} must be a string`);
    if ((b[k] as string).includes('\0')) throw new RestInputError(`body field ${k} must not contain a NUL character`);
  }
  return { email: b.email as string, password: b.password as string };
}

/** The POST /auth/sso/exchange body: the one-time code a sign-in handed the app. */
export function loginCodeBody(body: unknown): { code: string } {
  const b = jsonObject(body);
  const unknown = Object.keys(b).filter((k) => k !== 'code');
  if (unknown.length) throw new RestInputError(`unknown body field ${unknown.join(', ')} (allowed: code)`);
  if (typeof b.code !== 'string') throw new RestInputError('body field code must be a string');
  if (b.code.includes('\0')) throw new RestInputError('body field code must not contain a NUL character');
  return { code: b.code };
}

/** GET /auth/sso/methods's parameters: the company (required) and the app's path to return to. */
export function signInMethodsQuery(query: Record<string, unknown>): { company: string; redirect?: string } {
  const company = optionalStringQuery(query, 'company');
  if (company === undefined || !company.trim()) throw new RestInputError('query parameter company is required');
  return { company, redirect: optionalStringQuery(query, 'redirect') };
}
