// One request's scope: who calls, on which company, at what time, with which store and loaders. The HTTP layer
// builds it once per request (src/graphql/context.ts, for GraphQL and the REST routes alike); the operations in
// src/app take it and know nothing of the face that called them.
import type { RequestAuth } from '../auth/request-auth.ts';
import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import type { CompanyRow, UserRow } from '../db/rows.ts';
import { unauthenticated } from '../domain/errors.ts';
import type { Loaders } from '../loaders/registry.ts';

/** As long as the pool waits for a connection (src/db/adapters.ts). */
const CONNECT_WAIT_MS = 5000;

export class RequestScope {
  constructor(
    readonly db: Db,
    private readonly auth: RequestAuth,
    /** The request's clock: kickoff locks and prediction privacy compare against it. */
    readonly now: Date,
    readonly loaders: Loaders,
    /** Secrets and lifetimes for the tokens an operation signs, the store's provider (for SQL it writes), and
     * its statement timeout (which bounds a write's transaction). */
    readonly config: Pick<Config, 'jwtSecret' | 'jwtTtlSeconds' | 'database' | 'dbStatementTimeoutMs'>,
  ) {}

  /** The authenticated caller, or UNAUTHENTICATED (or the outage that kept them from being read). */
  requireViewer(): UserRow {
    if (this.auth.viewerError) throw this.auth.viewerError;
    if (!this.auth.viewer) throw unauthenticated();
    return this.auth.viewer;
  }

  /** The caller and the company the request acts on, checked against the caller's rights. */
  requireTenant(): { viewer: UserRow; tenant: CompanyRow } {
    const viewer = this.requireViewer();
    if (this.auth.tenantError) throw this.auth.tenantError;
    if (!this.auth.tenant) throw unauthenticated();
    return { viewer, tenant: this.auth.tenant };
  }

  /**
   * Runs `work` in one transaction. After it commits, every loader forgets what it has read, so the answer (read
   * through the same loaders) shows the write: no operation has to remember it.
   */
  async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    // Prisma's defaults (2 s to get a connection, 5 s in all) are shorter than the pool's and the statements' own
    // limits: a busy pool or a long rescoring would fail here first, as an internal error.
    const result = await this.db.$transaction(work, { maxWait: CONNECT_WAIT_MS, timeout: (this.config.dbStatementTimeoutMs || 25_000) + CONNECT_WAIT_MS });
    this.loaders.clearAll();
    return result;
  }
}
