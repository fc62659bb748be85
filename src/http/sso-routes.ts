// The sign-in routes (src/app/sso.ts does the work): GET /auth/sso/start sends the browser to the provider with a
// cookie binding the sign-in to it; GET /auth/sso/callback takes the provider's answer and sends the browser to the
// app with a one-time code (or ?error=); GET /auth/sso/done is where a sign-in ends when APP_URL is the gateway.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { codeDestination, DONE_PATH, finishSsoSignIn, SIGN_IN_TTL_MS, SsoRefusal, startSsoSignIn } from '../app/sso.ts';
import type { ThrottledClient } from '../app/password-client.ts';
import { openRequestScope, type ScopeSources } from './request-scope.ts';

const COOKIE = 'prode_sso';
const COOKIE_PATH = '/auth/sso';

// Nothing loads from anywhere: the pages are text. The code in the address must not leave it (no referrer, no cache).
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `  <p>${p}</p>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(title)}</title>
  <style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style>
</head>
<body>
<main>
  <h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

function browserSecretOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === COOKIE) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return (
    `${COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax` +
    (secure ? '; Secure' : '')
  );
}

type Query = Record<string, string | string[] | undefined>;
const one = (q: Query, name: string) => (Array.isArray(q[name]) ? undefined : (q[name] as string | undefined));

export function registerSsoRoutes(
  app: FastifyInstance,
  sources: ScopeSources,
  clientOf: (request: FastifyRequest) => { start: ThrottledClient; callback: ThrottledClient },
) {
  const secure = () => sources.config.sso.publicUrl.startsWith('https:');
  const noStore = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

  /** A refusal goes back to the app with ?error= where it has a safe path; else a page of ours says why. */
  async function refused(reply: FastifyReply, err: unknown, scope: Parameters<typeof codeDestination>[0]) {
    if (!(err instanceof SsoRefusal)) throw err;
    if (err.redirect !== null)
      return reply.headers(noStore).redirect(codeDestination(scope, err.redirect, { error: err.code }), 302);
    return reply
      .code(400)
      .headers(PAGE_HEADERS)
      .send(page('Sign-in failed', [`${escapeHtml(err.message)} (<code>${escapeHtml(err.code)}</code>)`]));
  }

  app.get('/auth/sso/start', async (request, reply) => {
    const q = request.query as Query;
    const { scope } = await openRequestScope(sources, {});
    try {
      const step = await startSsoSignIn(scope, clientOf(request).start, {
        company: one(q, 'company'),
        provider: one(q, 'provider'),
        redirect: one(q, 'redirect'),
      });
      return reply
        .headers({ ...noStore, 'set-cookie': cookie(step.browserSecret!, SIGN_IN_TTL_MS / 1000, secure()) })
        .redirect(step.location, 302);
    } catch (err) {
      return refused(reply, err, scope);
    }
  });

  app.get('/auth/sso/callback', async (request, reply) => {
    const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
    const { scope } = await openRequestScope(sources, {});
    // The cookie has done its work whatever the outcome.
    reply.header('set-cookie', cookie('', 0, secure()));
    try {
      const step = await finishSsoSignIn(scope, clientOf(request).callback, {
        query,
        browserSecret: browserSecretOf(request),
      });
      return reply.headers(noStore).redirect(step.location, 302);
    } catch (err) {
      return refused(reply, err, scope);
    }
  });

  app.get(DONE_PATH, async (request, reply) => {
    const q = request.query as Query;
    const code = one(q, 'code');
    const error = one(q, 'error');
    const html = code
      ? page('Signed in', [
          'Your sign-in is done. An app turns this one-time code into its token with the ' +
            '<code>exchangeLoginCode(code)</code> mutation (REST: <code>POST /auth/sso/exchange</code>), once, ' +
            'within 60 seconds:',
          `<code>${escapeHtml(code.slice(0, 200))}</code>`,
        ])
      : page('Sign-in failed', [
          `The sign-in did not finish: <code>${escapeHtml((error ?? 'unknown').slice(0, 100))}</code>.`,
        ]);
    return reply
      .code(code ? 200 : 400)
      .headers(PAGE_HEADERS)
      .send(html);
  });
}
