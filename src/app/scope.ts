// One request's scope: who calls, on which company, at what time, with which database, loaders and object budget.
// The HTTP layer builds it once per request (src/http/request-scope.ts, for GraphQL and the REST routes alike); the
// operations in src/app take it and know nothing of the face that called them.
//
// Guards: an operation declares who may run it with one call at its top (requireViewer, requireTenant,
// requireOwnCompany, requireRole); the rule behind each lives here, once.
import { createHash } from 'node:crypto';
import type { RequestAuth } from '../auth/request-auth.ts';
import { roleAtLeast, type RoleName } from '../domain/roles.ts';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { forbidden, unauthenticated } from '../domain/errors.ts';
import type { LiveEvent } from '../live/events.ts';
import type { Loaders } from '../loaders/registry.ts';
import type { ObjectBudget } from './object-budget.ts';

/** As long as the pool waits for a connection (src/db/adapters.ts). */
const CONNECT_WAIT_MS = 5000;

export interface ScopeParts {
  db: Db;
  auth: RequestAuth;
  /** The request's clock: kickoff locks and prediction privacy compare against it. */
  now: Date;
  loaders: Loaders;
  /** Objects the request may still resolve; shared with its loaders. */
  objects: ObjectBudget;
  /** Secrets and lifetimes for the tokens an operation signs, the database's provider (for SQL it writes), and
   * its statement timeout (which bounds a write's transaction). */
  config: Pick<
    Config,
    | 'jwtSecret'
    | 'jwtTtlSeconds'
    | 'database'
    | 'dbStatementTimeoutMs'
    | 'mail'
    | 'rescoreInRequestMaxPredictions'
    | 'env'
    | 'sso'
  >;
  /** Sends what an operation queued in the outbox (src/mail/delivery.ts), without waiting for it. */
  mail: { wake(): void };
  /** Tells live subscribers, on every replica, what changed: call it once the change committed. */
  live: { publish(event: LiveEvent): void };
  /** Runs the rescoring jobs an operation queued (src/app/rescore-runner.ts), without waiting for them. */
  rescoring: { wake(): void };
}

export interface Acting {
  viewer: UserRow;
  tenant: CompanyRow;
}

export class RequestScope {
  readonly db: Db;
  readonly now: Date;
  readonly loaders: Loaders;
  readonly objects: ObjectBudget;
  readonly config: ScopeParts['config'];
  readonly mail: ScopeParts['mail'];
  readonly live: ScopeParts['live'];
  readonly rescoring: ScopeParts['rescoring'];
  /**
   * What authentication established, read-only: for the faces' bookkeeping (a log line's ids, a per-company budget,
   * a subscription's re-check). Operations ask the guards below instead.
   */
  readonly auth: Readonly<RequestAuth>;

  constructor(parts: ScopeParts) {
    ({
      db: this.db,
      now: this.now,
      loaders: this.loaders,
      objects: this.objects,
      config: this.config,
      mail: this.mail,
      live: this.live,
      rescoring: this.rescoring,
      auth: this.auth,
    } = parts);
  }

  /** The authenticated caller, or null: for responses that differ for the caller without requiring one. */
  get caller(): UserRow | null {
    return this.auth.viewer;
  }

  /**
   * The caller and the company the request acts on, or null where requireTenant would refuse: for what a field shows
   * or hides by them without requiring them.
   */
  get acting(): Acting | null {
    const { viewer, tenant, viewerError, tenantError } = this.auth;
    return viewer && tenant && !viewerError && !tenantError ? { viewer, tenant } : null;
  }

  /** The authenticated caller, or UNAUTHENTICATED (or the outage that kept them from being read). */
  requireViewer(): UserRow {
    if (this.auth.viewerError) throw this.auth.viewerError;
    if (!this.auth.viewer) throw unauthenticated();
    return this.auth.viewer;
  }

  /** The caller and the company the request acts on, checked against the caller's rights. */
  requireTenant(): Acting {
    const viewer = this.requireViewer();
    if (this.auth.tenantError) throw this.auth.tenantError;
    if (!this.auth.tenant) throw unauthenticated();
    return { viewer, tenant: this.auth.tenant };
  }

  /**
   * For what a person does as a member of the company (predict, post, play internal rankings): the request must
   * act on the caller's own company, not one they manage. `refusal` says what is done only there.
   */
  requireOwnCompany(refusal: string): Acting {
    const acting = this.requireTenant();
    if (acting.tenant.id !== acting.viewer.companyId) throw forbidden(refusal);
    return acting;
  }

  /** The caller holds `min` or a higher role (player < admin < reseller < manager). */
  requireRole(min: RoleName, refusal: string): Acting {
    const acting = this.requireTenant();
    if (!roleAtLeast(acting.viewer.role as RoleName, min)) throw forbidden(refusal);
    return acting;
  }

  /**
   * Runs `work` in one transaction. After it commits, every loader forgets what it has read, so the response (read
   * through the same loaders) shows the write: no operation has to remember it.
   */
  async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    // Prisma's defaults (2 s to get a connection, 5 s in all) are shorter than the pool's and the statements' own
    // limits: a busy pool or a long rescoring would fail here first, as an internal error.
    const timeout = (this.config.dbStatementTimeoutMs || 25_000) + CONNECT_WAIT_MS;
    const result = await this.db.$transaction(work, { maxWait: CONNECT_WAIT_MS, timeout });
    this.loaders.clearAll();
    return result;
  }
}

/**
 * Who sees the same through the guards above and the fields that read no caller of their own
 * (src/graphql/types/caller-independent.ts): the company acted on, as its row was read (the settings fields show,
 * such as the prediction deadline), whether it is the caller's own company (requireOwnCompany), and the caller's role
 * (requireRole, and what a role is shown). Callers with the same key may be sent one execution of such a document
 * (src/graphql/subscriptions/executions.ts). null where requireTenant refuses: that refusal is the caller's alone.
 * Not in it, so never shared: anything of the caller's own (id, areas, rows).
 */
export function visibilityKey(auth: Readonly<RequestAuth>): string | null {
  const { viewer, tenant, viewerError, tenantError } = auth;
  if (!viewer || !tenant || viewerError || tenantError) return null;
  return `${tenant.id}:${rowDigest(tenant)}|${viewer.companyId}|${viewer.role}`;
}

/** A digest of a row's values, once per row object (a subscriber's scope keeps its rows between reads). */
const digests = new WeakMap<object, string>();
export function rowDigest(row: object): string {
  let digest = digests.get(row);
  if (digest === undefined) {
    const text = JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value));
    digests.set(row, (digest = createHash('sha256').update(text).digest('base64url')));
  }
  return digest;
}
