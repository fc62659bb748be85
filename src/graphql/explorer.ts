// GET /graphiql: a GraphQL explorer that works offline (GraphiQL 3 with React 18, their browser builds read from
// node_modules and served by us), and the pointer to it on Apollo Sandbox's page at GET /graphql, whose UI comes
// from Apollo's CDN. Both are on where Sandbox is (GRAPHQL_SANDBOX, off with NODE_ENV=production).
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'explorer');
const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const JS = 'application/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

// Everything comes from this origin; GraphiQL and CodeMirror set inline styles, and data: URLs carry its icons.
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

function loadAssets(): Map<string, [string, Buffer]> {
  const read = (path: string) => readFileSync(path);
  // A Map, not an object literal: a lookup of `constructor` or `__proto__` must miss, not find Object.prototype's.
  return new Map<string, [string, Buffer]>([
    ['react.production.min.js', [JS, read(join(packageDir('react'), 'umd/react.production.min.js'))]],
    ['react-dom.production.min.js', [JS, read(join(packageDir('react-dom'), 'umd/react-dom.production.min.js'))]],
    ['graphiql.min.js', [JS, read(join(packageDir('graphiql'), 'graphiql.min.js'))]],
    ['graphiql.min.css', [CSS, read(join(packageDir('graphiql'), 'graphiql.min.css'))]],
    ['graphql-ws.min.js', [JS, read(join(packageDir('graphql-ws'), 'umd/graphql-ws.min.js'))]],
    ['explorer.browser.js', [JS, read(join(here, 'explorer.browser.js'))]],
    ['explorer.css', [CSS, read(join(here, 'explorer.css'))]],
  ]);
}

export function registerExplorer(app: FastifyInstance) {
  const page = readFileSync(join(here, 'page.html'));
  const assets = loadAssets();
  app.get('/graphiql', (_req, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).send(page),
  );
  app.get<{ Params: { file: string } }>('/graphiql/assets/:file', (req, reply) => {
    const asset = assets.get(req.params.file);
    if (!asset) return reply.callNotFound();
    return reply.type(asset[0]).header('cache-control', 'public, max-age=3600').send(asset[1]);
  });
}

// Plain HTML in a bar at the top of the page: it shows without Apollo's scripts. Sandbox's frame (absolute, the
// whole viewport) is moved below it, or offline its empty frame would cover the link. Apollo's page allows only
// styles with its nonce.
const NOTICE_STYLE =
  '#offline-explorer { margin: 0; padding: 0.4em 1em; font-family: sans-serif; height: 1.4em; }\n' +
  'body #embeddableSandbox { top: 2.2em; height: calc(100vh - 2.2em); }';
const NOTICE =
  '<p id="offline-explorer">No internet here? Apollo Sandbox loads from Apollo&apos;s CDN; ' +
  'the offline explorer is at <a href="/graphiql">/graphiql</a>.</p>';

function addNotice(html: string): string {
  const nonce = /<style nonce=["']?([0-9a-f]+)/.exec(html)?.[1];
  if (!nonce || !html.includes('<body>')) throw new Error('Apollo landing page: no <body> or nonce for the notice');
  return html.replace('<body>', `<body>\n<style nonce="${nonce}">${NOTICE_STYLE}</style>\n${NOTICE}`);
}

/** Apollo's landing page plugin, its page given the notice that points to /graphiql. */
export function withOfflineExplorerNotice(landingPage: ApolloServerPlugin): ApolloServerPlugin {
  return {
    async serverWillStart(service) {
      const listener = await landingPage.serverWillStart?.(service);
      const render = listener?.renderLandingPage;
      if (!listener || !render) return listener;
      return {
        ...listener,
        async renderLandingPage() {
          const { html } = await render.call(listener);
          return {
            html: async () => {
              return addNotice(typeof html === 'string' ? html : await html());
            },
          };
        },
      };
    },
  };
}
