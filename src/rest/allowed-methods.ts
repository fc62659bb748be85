// Which methods each registered path serves, so that a known path asked with a method it does not serve gets
// 405 with an Allow header (RFC 9110, 15.5.6) instead of a 404 saying the path does not exist.
import type { FastifyInstance } from 'fastify';

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A parameter's segment: `:id` is any segment, `:token(^regex$)` only what its regular expression matches. */
function parameterPattern(segment: string): string {
  const regex = /^:\w+\((.*)\)$/.exec(segment)?.[1];
  return regex ? `(?:${regex.replace(/^\^/, '').replace(/\$$/, '')})` : '[^/]+';
}

/** The router's pattern (`/posts/:id`) as a regular expression over a request path. */
function patternOf(url: string): RegExp {
  const segments = url.split('/').map((s) => (s.startsWith(':') ? parameterPattern(s) : escapeRegExp(s)));
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * Watches every route registered from now on (call it before any route) and returns, for a request path, the
 * methods its routes serve, in a fixed order; none for a path no route serves.
 */
export function trackRouteMethods(app: FastifyInstance): (path: string) => string[] {
  const routes: Array<{ pattern: RegExp; methods: string[]; head: boolean }> = [];
  app.addHook('onRoute', (route) => {
    // A wildcard (the CORS preflight's OPTIONS *) serves any path: it would make every unknown path "known".
    if (route.url.includes('*')) return;
    // Fastify serves HEAD wherever a route serves GET, unless the route says not to (/graphql: Apollo refuses it).
    routes.push({
      pattern: patternOf(route.url),
      methods: [route.method].flat(),
      head: route.exposeHeadRoute !== false,
    });
  });
  return (path) => {
    const allowed = new Set<string>();
    for (const r of routes.filter((r) => r.pattern.test(path))) {
      for (const m of r.methods) allowed.add(m);
      if (r.head && r.methods.includes('GET')) allowed.add('HEAD');
    }
    return ORDER.filter((m) => allowed.has(m));
  };
}
