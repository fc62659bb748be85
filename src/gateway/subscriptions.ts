// GraphQL subscriptions over WebSocket (graphql-ws) on /graphql, with LIVE_MAX_SOCKETS above zero.
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { CompanySizes } from '../graphql/company-sizes.ts';
import { startSubscriptionServer } from '../graphql/subscriptions/server.ts';
import type { TrustedDocuments } from '../graphql/trusted-documents.ts';
import type { ScopeSources } from '../http/request-scope.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Clients } from './clients.ts';
import { forwardedAddress } from './forwarded-address.ts';

export interface SubscriptionDeps {
  metrics: Metrics;
  sources: ScopeSources;
  companySizes: CompanySizes;
  trusted: TrustedDocuments | null;
  clients: Clients;
}

export function registerSubscriptions(app: FastifyInstance, deps: SubscriptionDeps): void {
  const { sources } = deps;
  const { config, live } = sources;
  const sockets = startSubscriptionServer(app.server, {
    config,
    log: app.log,
    sources,
    sizes: deps.companySizes,
    trusted: deps.trusted,
    client: deps.clients.ofAddress,
    addressOf: (request) => normalizeIP(forwardedAddress(request, config.http.trustProxyHops)),
    draining: () => app.lifecycle.draining,
  });
  // Before the listener closes: open sockets would keep app.close() waiting.
  app.addHook('preClose', async () => sockets.close());
  deps.metrics.watch('live', () => ({ ...sockets.figures(), ...live.stats }));
}
