// GraphQL at /graphql: Apollo with its plugins (text inputs, cost, the response cache, tracing), behind the checks
// that run before Apollo parses anything.
import type { ApolloServer } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import { responseCachePlugin, type ResponseCache } from '../engine/cache/response-cache.ts';
import { createApollo } from '../graphql/apollo.ts';
import type { CompanySizes } from '../graphql/company-sizes.ts';
import { contextOf, type Context } from '../graphql/context.ts';
import { costPlugin } from '../graphql/cost-plugin.ts';
import { documentNestingPreHandler } from '../graphql/input-limits.ts';
import { textInputsPlugin } from '../graphql/text-inputs.ts';
import { TrustedDocuments } from '../graphql/trusted-documents.ts';
import { openRequestScope, tenantHeaders, type ScopeSources } from '../http/request-scope.ts';
import type { Metrics } from '../observability/metrics.ts';
import { tracingPlugin, type Tracing } from '../observability/tracing.ts';
import type { Clients } from './clients.ts';

export interface GraphqlRouteDeps {
  metrics: Metrics;
  sources: ScopeSources;
  companySizes: CompanySizes;
  responseCache: ResponseCache | null;
  tracing: Tracing | null | undefined;
  clients: Clients;
}

export interface GraphqlRoute {
  apollo: ApolloServer<Context>;
  /** The manifest of the operations allowed to run, with PERSISTED_OPERATIONS_ONLY. */
  trusted: TrustedDocuments | null;
}

export async function registerGraphqlRoute(app: FastifyInstance, deps: GraphqlRouteDeps): Promise<GraphqlRoute> {
  const { sources, responseCache, tracing } = deps;
  const { config } = sources;
  const trusted = config.graphql.persistedOperationsOnly ? TrustedDocuments.load() : null;
  if (trusted) app.log.info({ operations: trusted.size }, 'PERSISTED_OPERATIONS_ONLY: only manifest operations run');
  const apollo = createApollo(
    config,
    app.log,
    deps.metrics,
    [
      fastifyApolloDrainPlugin(app),
      textInputsPlugin(),
      costPlugin(config.graphql.maxCost, deps.companySizes),
      ...(responseCache ? [responseCachePlugin(responseCache, sources.db)] : []),
      ...(tracing ? [tracingPlugin(tracing.tracer)] : []),
    ],
    trusted,
  );
  await apollo.start();
  // Not stopped from app.close(): its drain plugin itself calls fastify.close(), which would wait on itself.
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    // Apollo serves no HEAD; without this Fastify would route one to it and Allow would list HEAD.
    exposeHeadRoute: false,
    // A document nested too deep is refused before the parser (recursive) reads it; then the trusted-document check.
    preHandler: [documentNestingPreHandler(), ...(trusted ? [trusted.preHandler()] : [])],
    handler: fastifyApolloHandler(apollo, {
      // Auth failures, outages included, are held in the context and thrown by the resolvers' guards, where
      // formatError maps an outage to SERVICE_UNAVAILABLE.
      context: async (request) =>
        contextOf(await openRequestScope(sources, tenantHeaders(request)), deps.clients.ofRequest(request)),
    }),
  });
  return { apollo, trusted };
}
