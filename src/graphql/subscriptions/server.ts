// Subscriptions over WebSocket (graphql-ws, the graphql-transport-ws protocol Apollo Client and urql speak), on
// the HTTP server's own port and path (/graphql). Each subscription is held to what a query is: the token and the
// tenant headers, sent as connectionParams, authenticate it; the depth, field, alias, token and cost limits refuse
// it before it runs; errors carry the same codes. Queries and mutations stay on HTTP.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { getOperationAST, getVariableValues, GraphQLError, Kind, specifiedRules, type ExecutionArgs } from 'graphql';
import { WebSocketServer } from 'ws';
import type { Config } from '../../config.ts';
import { DomainError, queryTooCostly, rateLimited, unauthenticated } from '../../domain/errors.ts';
import { AddressWindow } from '../../security/address-window.ts';
import { scopeFor, type OpenedRequest, type ScopeSources } from '../../http/request-scope.ts';
import type { LiveFigures } from '../../observability/metrics.ts';
import type { RequestOutcome } from '../../observability/request-outcome.ts';
import type { TenantHeaders } from '../../auth/request-auth.ts';
import { formatErrorFor } from '../apollo.ts';
import type { CompanySizes } from '../company-sizes.ts';
import type { ClientInfo, Context } from '../context.ts';
import { documentFragments, operationCost } from '../cost.ts';
import { documentNestingProblem } from '../input-limits.ts';
import { aliasLimitRule, queryLimitsRule } from '../limits.ts';
import { SubscriptionDocuments } from './documents.ts';
import { SubscriptionExecutions } from './executions.ts';
import { SharedRows, subscriberContext, type Subscribers } from './subscriber.ts';
import { graphqlWsTransport } from './ws-transport.ts';
import { getSchema } from '../schema.ts';
import type { TrustedDocuments } from '../trusted-documents.ts';
import { engineFor } from '../../engine/index.ts';

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
  const subscribers: Subscribers = {
    sources: deps.sources,
    log,
    parked: parkedScope(deps.sources),
    rows: new SharedRows(),
  };
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
    socket.on('error', destroy);
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
    // Only the address stays with the socket (graphql-ws's ctx.extra), not the request.
    wss.handleUpgrade(request, socket, head, (ws) => transport.accept(ws, { address }));
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
  const started = new WeakMap<object, Map<string, Started>>();
  const transport = graphqlWsTransport<Record<string, unknown> | undefined>(
    {
      schema,
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      subscribe: executions.subscribe,
      onSubscribe: async (ctx, _id, payload) => {
        // graphql-ws has already counted this one in.
        if (Object.keys(ctx.subscriptions).length > config.live.maxSubscriptionsPerSocket)
          return [refusal(`at most ${config.live.maxSubscriptionsPerSocket} subscriptions per connection`)];
        const wait = requests.hit(ctx.extra.address);
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
        const { address } = ctx.extra;
        const headers = headersOf(ctx.connectionParams);
        const contextValue = await subscriberContext(subscribers, headers, deps.client(address), ctx, address);
        // The document by its number (one per kept text), not its text: each subscription holds this string.
        contextValue.subscription!.request = JSON.stringify([
          parsed.id,
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
        let open = started.get(ctx);
        if (!open) started.set(ctx, (open = new Map()));
        const { outcome } = (args.contextValue as Context).client;
        const { tenantId, tenantPath, userId } = outcome;
        open.set(id, { at: performance.now(), args, tenantId, tenantPath, userId });
        deps.log.info(
          { ...subscriptionLogFields(args, outcome), subscriptionId: id, event: 'subscribe' },
          'subscription',
        );
      },
      onComplete: (ctx, id) => {
        figures.subscriptions--;
        const open = started.get(ctx)?.get(id);
        if (!open) return;
        started.get(ctx)!.delete(id);
        const ms = Math.round(performance.now() - open.at);
        const fields = subscriptionLogFields(open.args, open);
        deps.log.info({ ...fields, subscriptionId: id, event: 'complete', ms }, 'subscription');
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
    log,
  );

  return {
    figures: () => ({ ...figures, refused: { ...figures.refused }, executions: executions.figures() }),
    async close() {
      server.off('upgrade', onUpgrade);
      // A client that does not respond to the close handshake is cut off: shutdown does not wait on it.
      const cut = setTimeout(() => {
        for (const ws of wss.clients) ws.terminate();
      }, CLOSE_HANDSHAKE_MS);
      await transport.dispose();
      clearTimeout(cut);
    },
  };
}

function destroy(this: Duplex) {
  this.destroy();
}

/** Whom a subscription was served for when it began. */
type Caller = Pick<RequestOutcome, 'tenantId' | 'tenantPath' | 'userId'>;

/** A running subscription, for the line that says when it ended (its fields as when it began). */
interface Started extends Caller {
  at: number;
  args: ExecutionArgs;
}

/** A subscription's log fields, as a request's line has them (src/observability/request-log.ts). */
function subscriptionLogFields(args: ExecutionArgs, outcome: Caller): Record<string, unknown> {
  const operation = getOperationAST(args.document, args.operationName);
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
