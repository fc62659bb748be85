// Subscriptions over WebSocket (graphql-ws, the graphql-transport-ws protocol Apollo Client and urql speak), on
// the HTTP server's own port and path (/graphql). Each subscription is held to what a query is: the token and the
// tenant headers, sent as connectionParams, authenticate it; the depth, field, alias, token and cost limits refuse
// it before it runs; errors carry the same codes. Queries and mutations stay on HTTP.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { getOperationAST, getVariableValues, GraphQLError, Kind, specifiedRules, type ExecutionArgs } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { decodeJwt } from 'jose';
import { WebSocketServer } from 'ws';
import type { Config } from '../../config.ts';
import { DomainError, queryTooCostly, rateLimited, unauthenticated } from '../../domain/errors.ts';
import { AddressWindow } from '../../security/address-window.ts';
import { scopeFor, openRequestScope, type OpenedRequest, type ScopeSources } from '../../http/request-scope.ts';
import type { LiveFigures } from '../../observability/metrics.ts';
import type { RequestAuth, TenantHeaders } from '../../auth/request-auth.ts';
import { formatErrorFor } from '../apollo.ts';
import type { CompanySizes } from '../company-sizes.ts';
import { contextOf, type ClientInfo, type Context } from '../context.ts';
import { documentFragments, operationCost } from '../cost.ts';
import { documentNestingProblem } from '../input-limits.ts';
import { aliasLimitRule, queryLimitsRule } from '../limits.ts';
import { SubscriptionDocuments } from './documents.ts';
import { SubscriptionExecutions } from './executions.ts';
import { getSchema } from '../schema.ts';
import type { TrustedDocuments } from '../trusted-documents.ts';
import { engineFor } from '../../engine/index.ts';

/** A subscriber's authentication is read again at most this long after it was last read. */
const REAUTH_MS = 60_000;
const CONNECTION_INIT_WAIT_MS = 5000;
const CLOSE_HANDSHAKE_MS = 2000;

export interface SubscriptionServerDeps {
  config: Config;
  log: FastifyBaseLogger;
  sources: ScopeSources;
  sizes: CompanySizes;
  /** PERSISTED_OPERATIONS_ONLY: the manifest whose operations alone may be subscribed to; null accepts any. */
  trusted: TrustedDocuments | null;
  /** Who is on the other end, by address (the throttles and the outcome metrics read it). */
  client: (ip: string) => ClientInfo;
  /** The client address of an upgrade request, proxies believed as for HTTP requests. */
  addressOf: (request: IncomingMessage) => string;
  /** True while the replica drains: no new sockets. */
  draining: () => boolean;
}

export interface SubscriptionServer {
  figures(): Omit<LiveFigures, 'published' | 'publishFailures' | 'received' | 'missed'>;
  /** Closes every socket with 1001 (going away), so clients reconnect, to another replica if there is one. */
  close(): Promise<void>;
}

type AddressedRequest = IncomingMessage & { prodeAddress?: string };
type Extra = { request: AddressedRequest };

export function startSubscriptionServer(server: Server, deps: SubscriptionServerDeps): SubscriptionServer {
  const { config, log } = deps;
  const format = formatErrorFor(config, log);
  const schema = getSchema(engineFor(config).leanResolvers);
  const rules = [
    ...specifiedRules,
    queryLimitsRule(config.graphql.maxDepth, config.graphql.maxFields),
    aliasLimitRule(config.graphql.maxAliases),
  ];
  // One parsed and validated document per distinct text, shared by the subscriptions that send it.
  const documents = new SubscriptionDocuments(schema, rules, config.graphql.maxTokens);
  const parked = parkedScope(deps.sources);
  const perAddress = new Map<string, number>();
  // Upgrades and subscriptions count like requests (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS), in this replica.
  const requests = new AddressWindow(config.rateLimit.max, config.rateLimit.windowMs);
  const figures = { sockets: 0, subscriptions: 0, opened: 0, sent: 0, refused: {} as Record<string, number> };
  // Each event's executions: shared, budgeted per socket, address and process, queued apart from HTTP's.
  const executions = new SubscriptionExecutions(config.live, (obj, msg) => log.warn(obj, msg));
  const refuse = (socket: Duplex, status: number, reason: string, why: string) => {
    figures.refused[why] = (figures.refused[why] ?? 0) + 1;
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () =>
      socket.destroy(),
    );
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: config.http.bodyLimitBytes });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node takes its own error listener off an upgraded socket: a reset while we respond must not crash the process.
    socket.on('error', () => socket.destroy());
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/graphql') return refuse(socket, 404, 'Not Found', 'path');
    if (deps.draining()) return refuse(socket, 503, 'Service Unavailable', 'draining');
    if (figures.sockets >= config.live.maxSockets) return refuse(socket, 503, 'Service Unavailable', 'total');
    const address = deps.addressOf(request);
    if (requests.hit(address) !== null) return refuse(socket, 429, 'Too Many Requests', 'rate');
    const open = perAddress.get(address) ?? 0;
    if (open >= config.live.maxSocketsPerAddress) return refuse(socket, 429, 'Too Many Requests', 'per_address');
    perAddress.set(address, open + 1);
    figures.sockets++;
    figures.opened++;
    socket.once('close', () => {
      figures.sockets--;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    // graphql-ws keeps the request in ctx.extra: the address travels on it.
    (request as AddressedRequest).prodeAddress = address;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);

  // Shaped as Apollo shapes them over HTTP: the same codes, without the HTTP status Apollo reads and drops.
  const errorsOf = (errors: readonly GraphQLError[]) =>
    errors.map((e) => {
      const shaped = format(e.toJSON(), e);
      const { http: _http, ...extensions } = (shaped.extensions ?? {}) as Record<string, unknown>;
      return { ...shaped, extensions };
    });

  // Each connection's running subscriptions, for the line that says when one ended.
  const started = new WeakMap<object, Map<string, { at: number; fields: Record<string, unknown> }>>();
  const graphqlWs = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      subscribe: executions.subscribe,
      onSubscribe: async (ctx, _id, payload) => {
        // graphql-ws has already counted this one in.
        if (Object.keys(ctx.subscriptions).length > config.live.maxSubscriptionsPerSocket)
          return [refusal(`at most ${config.live.maxSubscriptionsPerSocket} subscriptions per connection`)];
        const wait = requests.hit(ctx.extra.request.prodeAddress ?? 'unknown');
        if (wait !== null) return [asGraphQLError(rateLimited(`too many subscriptions: try again in ${wait} s`, wait))];
        let source = payload.query;
        if (deps.trusted) {
          try {
            source = deps.trusted.trustedSource(payload.query, payload.extensions);
          } catch (err) {
            return [asGraphQLError(err)];
          }
        }
        const tooDeep = documentNestingProblem(source);
        if (tooDeep) return [tooDeep];
        const parsed = documents.get(source);
        if (parsed.kind === 'unparsable') {
          const err = parsed.error;
          return [withCode(err instanceof GraphQLError ? err : refusal(String(err)), 'GRAPHQL_PARSE_FAILED')];
        }
        if (parsed.kind === 'invalid') return parsed.errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'));
        const document = parsed.document;
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [refusal('the document names no operation to run (operationName)')];
        if (operation.operation !== 'subscription')
          return [refusal(`a ${operation.operation} goes over HTTP (POST /graphql); WebSocket takes subscriptions`)];
        const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {});
        if (coerced.errors) return coerced.errors;
        const contextValue = await subscriptionContext(ctx, deps, parked);
        contextValue.subscription!.request = JSON.stringify([
          source,
          payload.operationName ?? null,
          payload.variables ?? {},
        ]);
        contextValue.subscription!.acrossCallers = parsed.acrossCallers;
        const company = contextValue.scope.auth.tenant?.id ?? contextValue.scope.auth.viewer?.companyId;
        const cost = operationCost(
          schema,
          operation,
          documentFragments(document),
          coerced.coerced,
          deps.sizes.for(company),
        );
        if (cost > config.graphql.maxCost) return [asGraphQLError(queryTooCostly(cost, config.graphql.maxCost))];
        const args: ExecutionArgs = {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
        return args;
      },
      onOperation: (ctx, id, _payload, args) => {
        figures.subscriptions++;
        const fields = subscriptionLogFields(args);
        let open = started.get(ctx);
        if (!open) started.set(ctx, (open = new Map()));
        open.set(id, { at: performance.now(), fields });
        deps.log.info({ ...fields, subscriptionId: id, event: 'subscribe' }, 'subscription');
      },
      onComplete: (ctx, id) => {
        figures.subscriptions--;
        const open = started.get(ctx)?.get(id);
        if (!open) return;
        started.get(ctx)!.delete(id);
        const ms = Math.round(performance.now() - open.at);
        deps.log.info({ ...open.fields, subscriptionId: id, event: 'complete', ms }, 'subscription');
      },
      onError: (_ctx, _id, _payload, errors) => errorsOf(errors),
      onNext: (_ctx, _id, _payload, _args, result) => {
        figures.sent++;
        if (!result.errors) return;
        return { ...result, errors: errorsOf(result.errors.map((e) => asGraphQLError(e))) };
      },
    },
    wss,
    config.live.keepAliveMs,
  );

  return {
    figures: () => ({ ...figures, refused: { ...figures.refused }, executions: executions.figures() }),
    async close() {
      server.off('upgrade', onUpgrade);
      // A client that does not respond to the close handshake is cut off: shutdown does not wait on it.
      const cut = setTimeout(() => {
        for (const ws of wss.clients) ws.terminate();
      }, CLOSE_HANDSHAKE_MS);
      await graphqlWs.dispose();
      clearTimeout(cut);
    },
  };
}

/** A subscription's log fields, as a request's line has them (src/observability/request-log.ts). */
function subscriptionLogFields(args: ExecutionArgs): Record<string, unknown> {
  const operation = getOperationAST(args.document, args.operationName);
  const { outcome } = (args.contextValue as Context).client;
  return {
    operation: operation?.name?.value.slice(0, 100),
    rootFields: operation?.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])),
    tenantId: outcome.tenantId,
    tenantPath: outcome.tenantPath ?? undefined,
    userId: outcome.userId,
  };
}

/**
 * What a subscription's context is given between events: no caller, so any read through it is refused (nothing
 * reads it: an event's scope is made by open() just before the subscription's own execution). One for the server,
 * so a waiting subscription holds no scope, loaders or budget of its own.
 */
function parkedScope(sources: ScopeSources): OpenedRequest {
  const between = unauthenticated('a subscription has no scope between events');
  const auth = { viewer: null, viewerCompany: null, tenant: null, viewerError: between, tenantError: between };
  return scopeFor(sources, { auth, tableVersions: null, headers: {} });
}

/** The connection's context for one subscription: authenticated now, then re-read at most every REAUTH_MS. */
async function subscriptionContext(
  ctx: WsContext<Record<string, unknown> | undefined, Extra>,
  deps: SubscriptionServerDeps,
  parked: OpenedRequest,
) {
  const headers = headersOf(ctx.connectionParams);
  const address = ctx.extra.request.prodeAddress ?? 'unknown';
  const client = deps.client(address);
  const first = await openRequestScope(deps.sources, headers);
  // The caller as last read; the scope of an event is made from it when the event comes, and let go after it.
  let caller: Omit<OpenedRequest, 'scope'> = { auth: first.auth, tableVersions: first.tableVersions, headers };
  let readAt = Date.now();
  let stale = false;
  const expiresAt = tokenExpiry(headers.authorization);
  const context: Context = contextOf(first, client);
  const use = (opened: OpenedRequest) =>
    Object.assign(context, contextOf(opened, client), { subscription: context.subscription });
  context.subscription = {
    bus: deps.sources.live,
    expiresAt,
    socket: ctx,
    address,
    request: '',
    acrossCallers: false,
    // Only the scope is let go: the caller's facts (the log's outcome among them) stay as the last event left them.
    release: () => void Object.assign(context, { scope: parked.scope, tableVersions: null }),
    userId: first.auth.viewer?.id ?? null,
    // A revocation of the caller's sessions (stream.ts); one heard while a read runs is not lost to it.
    reauthenticate: () => void (stale = true),
    refresh: async () => {
      if (stale || Date.now() - readAt > REAUTH_MS || Date.now() >= expiresAt) {
        stale = false;
        try {
          const opened = await openRequestScope(deps.sources, headers);
          caller = { auth: opened.auth, tableVersions: opened.tableVersions, headers };
          readAt = Date.now();
        } catch (err) {
          // Closed, not open: without a fresh read of the caller this event is responded to with the outage.
          deps.log.warn({ err: String((err as Error).message ?? err) }, 'subscription: cannot read its caller again');
          const failed = err instanceof Error ? err : new Error(String(err));
          const auth = { viewer: null, viewerCompany: null, tenant: null, viewerError: failed, tenantError: failed };
          caller = { ...caller, auth };
          readAt = 0;
        }
        noteCaller(client, caller.auth);
      }
      const { auth } = caller;
      // A caller deleted, deactivated, moved or whose token expired: this event's response says why, then the
      // subscription ends. An outage (a read that failed) keeps it: the next event reads the caller again.
      return readAt === 0 || (auth.viewer !== null && !auth.viewerError && !auth.tenantError);
    },
    caller: () => caller.auth,
    // Made only for an execution of this subscription's own, so a subscriber sent a copy makes no garbage per event.
    open: () => void use(scopeFor(deps.sources, caller)),
  };
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

/** connectionParams hold what HTTP requests send as headers, under the same names (any case). */
function headersOf(params: Record<string, unknown> | undefined): TenantHeaders {
  const get = (name: string) => {
    for (const [k, v] of Object.entries(params ?? {})) if (k.toLowerCase() === name && typeof v === 'string') return v;
    return undefined;
  };
  return {
    authorization: get('authorization'),
    appHost: get('x-app-host'),
    appPath: get('x-app-path'),
    appCompany: get('x-app-company'),
  };
}

/** The code Apollo gives parse and validation errors over HTTP. */
const withCode = (e: GraphQLError, code: string) =>
  new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, extensions: { code } });

const refusal = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

/** A domain error raised outside execution, as graphql-js would wrap it inside. */
function asGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  const e = err as Error;
  return new GraphQLError(e.message, {
    originalError: e,
    extensions: e instanceof DomainError ? e.extensions : {},
  });
}
