// GET /openapi.json and a human docs page at GET /docs (Swagger UI from the swagger-ui-dist npm package,
// served by us: it works offline).
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openApiDocument } from './openapi.ts';

const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Prode gateway API</title><link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script></body>
</html>`;
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** `schema`: the GraphQL schema the stored operations run on, which the responses' JSON Schemas are derived from. */
export function registerDocs(app: FastifyInstance, schema: GraphQLSchema) {
  const document = JSON.stringify(openApiDocument(schema));
  // A Map, not an object literal: a lookup of `constructor` or `__proto__` must miss, not find Object.prototype's.
  const assets = new Map<string, [string, Buffer | string]>([
    ['swagger-ui.css', ['text/css; charset=utf-8', readFileSync(join(dist, 'swagger-ui.css'))]],
    [
      'swagger-ui-bundle.js',
      ['application/javascript; charset=utf-8', readFileSync(join(dist, 'swagger-ui-bundle.js'))],
    ],
    ['init.js', ['application/javascript; charset=utf-8', INIT]],
  ]);
  app.get('/openapi.json', (_req, reply) => reply.type('application/json').send(document));
  app.get('/docs', (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get<{ Params: { file: string } }>('/docs/:file', (req, reply) => {
    const asset = assets.get(req.params.file);
    if (!asset) return reply.callNotFound();
    return reply.type(asset[0]).header('cache-control', 'public, max-age=3600').send(asset[1]);
  });
}
