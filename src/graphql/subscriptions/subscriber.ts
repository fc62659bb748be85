// One subscription's caller between events: who it is as last read, read again when due, and the scope an event's
// own execution is given. What thousands of waiting subscriptions hold is kept small and shared where it is the same
// (docs/decisions/0033-light-sockets.md): the rows of callers are one object per distinct row, and the channel is a
// class instance, not closures (each closure of a module loaded through tsx carries a property dictionary).
import type { FastifyBaseLogger } from 'fastify';
import { decodeJwt } from 'jose';
import { rowDigest } from '../../app/scope.ts';
import type { RequestAuth, TenantHeaders } from '../../auth/request-auth.ts';
import type { LiveBus } from '../../live/bus.ts';
import { openRequestScope, scopeFor, type OpenedRequest, type ScopeSources } from '../../http/request-scope.ts';
import { contextOf, type ClientInfo, type Context } from '../context.ts';
import type { SubscriptionChannel } from './channel.ts';

/** A subscriber's authentication is read again at most this long after it was last read. */
export const REAUTH_MS = 60_000;

/** What every subscription of one server reads its caller with. */
export interface Subscribers {
  sources: ScopeSources;
  log: FastifyBaseLogger;
  /** Given to a subscription's context between events (it has no caller: a read through it is refused). */
  parked: OpenedRequest;
  rows: SharedRows;
}

/**
 * Callers' rows as read, one object per distinct row (same id and values) for as long as a subscription holds it:
 * a thousand players of one company hold one company row between them, and a player's sockets one user row.
 * Rows are never changed once read (the auth row cache hands one object to many requests already).
 */
export class SharedRows {
  private readonly rows = new Map<string, WeakRef<object>>();
  private readonly collected = new FinalizationRegistry<string>((key) => {
    if (this.rows.get(key)?.deref() === undefined) this.rows.delete(key);
  });

  /** `auth` with each row replaced by the one already held, when an equal one is. */
  auth(auth: RequestAuth): RequestAuth {
    return {
      ...auth,
      viewer: this.row('user', auth.viewer),
      tenant: this.row('company', auth.tenant),
      viewerCompany: this.row('company', auth.viewerCompany),
    };
  }

  /** Distinct rows held (tests). */
  get size(): number {
    return this.rows.size;
  }

  private row<T extends { id: number }>(table: string, row: T | null): T | null {
    if (row === null) return null;
    const key = `${table}:${row.id}:${rowDigest(row)}`;
    const held = this.rows.get(key)?.deref();
    if (held) return held as T;
    this.rows.set(key, new WeakRef(row));
    this.collected.register(row, key);
    return row;
  }
}

type Caller = Omit<OpenedRequest, 'scope'>;

/** The channel of one subscription (SubscriptionChannel): set on its context, read by the stream and executions. */
export class SubscriberChannel implements SubscriptionChannel {
  readonly bus: LiveBus;
  readonly expiresAt: number;
  readonly userId: number | null;
  request = '';
  acrossCallers = false;
  /** The caller as last read; the scope of an event is made from it when the event comes, and let go after it. */
  private last: Caller;
  private readAt = Date.now();
  private stale = false;

  constructor(
    private readonly subscribers: Subscribers,
    private readonly context: Context,
    private readonly client: ClientInfo,
    private readonly headers: TenantHeaders,
    first: RequestAuth,
    readonly socket: object,
    readonly address: string,
  ) {
    this.bus = subscribers.sources.live;
    this.expiresAt = tokenExpiry(headers.authorization);
    this.userId = first.viewer?.id ?? null;
    // No table versions: they serve the response cache, which subscription executions do not use.
    this.last = { auth: subscribers.rows.auth(first), tableVersions: null, headers };
  }

  /** Only the scope is let go: the caller's facts (the log's outcome among them) stay as the last event left them. */
  release(): void {
    this.context.scope = this.subscribers.parked.scope;
    this.context.tableVersions = null;
  }

  /** A revocation of the caller's sessions (stream.ts); one heard while a read runs is not lost to it. */
  reauthenticate(): void {
    this.stale = true;
  }

  refresh(): boolean | Promise<boolean> {
    const now = Date.now();
    if (this.stale || now - this.readAt > REAUTH_MS || now >= this.expiresAt) return this.readAgain();
    return this.allowed();
  }

  private allowed(): boolean {
    const { auth } = this.last;
    // A caller deleted, deactivated, moved or whose token expired: this event's response says why, then the
    // subscription ends. An outage (a read that failed) keeps it: the next event reads the caller again.
    return this.readAt === 0 || (auth.viewer !== null && !auth.viewerError && !auth.tenantError);
  }

  caller(): Readonly<RequestAuth> {
    return this.last.auth;
  }

  /** Made only for an execution of this subscription's own, so a subscriber sent a copy makes no garbage per event. */
  open(): void {
    const opened = scopeFor(this.subscribers.sources, this.last);
    const { subscription } = this.context;
    Object.assign(this.context, contextOf(opened, this.client), { subscription });
  }

  private async readAgain(): Promise<boolean> {
    const { sources, log, rows } = this.subscribers;
    this.stale = false;
    try {
      const opened = await openRequestScope(sources, this.headers);
      this.last = { auth: rows.auth(opened.auth), tableVersions: null, headers: this.headers };
      this.readAt = Date.now();
    } catch (err) {
      // Closed, not open: without a fresh read of the caller this event is responded to with the outage.
      log.warn({ err: String((err as Error).message ?? err) }, 'subscription: cannot read its caller again');
      const failed = err instanceof Error ? err : new Error(String(err));
      const auth = { viewer: null, viewerCompany: null, tenant: null, viewerError: failed, tenantError: failed };
      this.last = { ...this.last, auth };
      this.readAt = 0;
    }
    noteCaller(this.client, this.last.auth);
    return this.allowed();
  }
}

/** The connection's context for one subscription: authenticated now, then read again at most every REAUTH_MS. */
export async function subscriberContext(
  subscribers: Subscribers,
  headers: TenantHeaders,
  client: ClientInfo,
  socket: object,
  address: string,
): Promise<Context> {
  const first = await openRequestScope(subscribers.sources, headers);
  const context: Context = contextOf(first, client);
  context.subscription = new SubscriberChannel(subscribers, context, client, headers, first.auth, socket, address);
  return context;
}

/** Whom the subscription is served for, for its log line, as contextOf notes it for a request. */
function noteCaller(client: ClientInfo, auth: Readonly<RequestAuth>) {
  client.outcome.tenantId = auth.tenant?.id;
  client.outcome.tenantPath = auth.tenant?.appPath;
  client.outcome.userId = auth.viewer?.id;
}

/** When the bearer token stops being valid (its signature was checked when the subscription began). */
function tokenExpiry(authorization: string | undefined): number {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1];
  if (!token) return Infinity;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : Infinity;
  } catch {
    return Infinity;
  }
}
