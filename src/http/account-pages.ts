// The pages the links of our e-mails open when APP_URL is the gateway itself (its default): set a password
// (/reset-password, also operator:create's link), confirm an e-mail address (/verify-email) and accept an
// invitation (/accept-invitation), each with ?token=; GET /invitations/<token>, the invitation links' earlier form,
// redirects to /accept-invitation. Static HTML and one script of ours that calls the existing
// mutations over POST /graphql; nothing else is loaded. docs/account-links.md is what a frontend handles instead.
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'account-pages');
const MANIFEST = fileURLToPath(new URL('../../operations/manifest.json', import.meta.url));

// Everything from this origin; the token in the address must not leave it (no referrer, no cache, no framing).
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Field {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  /** The id of the hint under the input (PASSWORD_HINT). */
  hint?: string;
  maxLength?: number;
  /** Shown by the script only when asked for (an invitation without an e-mail). */
  hidden?: boolean;
}

interface PageSpec {
  path: string;
  title: string;
  intro: string;
  button: string;
  fields: Field[];
  /** Names of operations/pages/account.graphql the page's script sends. */
  operations: string[];
}

const NEW_PASSWORD: Field[] = [
  { name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: 'password-hint' },
  { name: 'repeat', label: 'Repeat the new password', type: 'password', autocomplete: 'new-password' },
];

const ACCOUNT_PAGES: Record<'reset' | 'verify' | 'invitation', PageSpec> = {
  reset: {
    path: '/reset-password',
    title: 'Set your password',
    intro: 'Choose the password of your account.',
    button: 'Set the password',
    fields: NEW_PASSWORD,
    operations: ['AccountPageResetPassword'],
  },
  verify: {
    path: '/verify-email',
    title: 'Confirm your e-mail address',
    intro: 'Confirm that this e-mail address is yours to start playing.',
    button: 'Confirm my e-mail address',
    fields: [],
    operations: ['AccountPageVerifyEmail'],
  },
  invitation: {
    path: '/accept-invitation',
    title: 'Accept your invitation',
    intro: 'Create your account to join the game.',
    button: 'Create my account',
    fields: [
      { name: 'name', label: 'Your name', type: 'text', autocomplete: 'name', maxLength: 200 },
      {
        name: 'email',
        label: 'Your e-mail address',
        type: 'email',
        autocomplete: 'email',
        maxLength: 254,
        hidden: true,
      },
      ...NEW_PASSWORD,
    ],
    operations: ['AccountPageInvitation', 'AccountPageAcceptInvitation'],
  },
};

/** A path segment that is not a plain integer (an invitation's id): the router's regular expression. */
const INVITATION_TOKEN_SEGMENT = '^(?!\\d+$)[^/]+$';

const PASSWORD_HINT = "Your company's password rules apply: this page says if it is too weak.";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function fieldHtml(f: Field): string {
  const hint = f.hint ? ` aria-describedby="${f.hint}"` : '';
  const hintText = f.hint ? `\n      <p class="hint" id="${f.hint}">${escapeHtml(PASSWORD_HINT)}</p>` : '';
  return (
    `    <div class="field"${f.hidden ? ' hidden' : ''}>\n` +
    `      <label for="${f.name}">${escapeHtml(f.label)}</label>\n` +
    `      <input id="${f.name}" name="${f.name}" type="${f.type}" autocomplete="${f.autocomplete}"` +
    `${f.maxLength ? ` maxlength="${f.maxLength}"` : ''}${hint}>${hintText}\n` +
    `    </div>\n`
  );
}

/** The page's HTML: the operations it sends travel in a JSON block (data, not script: the CSP allows it). */
function pageHtml(key: string, spec: PageSpec, operations: Record<string, string>): string {
  const json = JSON.stringify(operations).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(spec.title)}</title>
  <link rel="stylesheet" href="/account-pages/account.css">
</head>
<body data-page="${key}">
<main>
  <h1>${escapeHtml(spec.title)}</h1>
  <p id="intro">${escapeHtml(spec.intro)}</p>
  <noscript><p>This page needs JavaScript to send the form.</p></noscript>
  <form id="account-form" method="post" novalidate hidden>
${spec.fields.map(fieldHtml).join('')}    <button type="submit">${escapeHtml(spec.button)}</button>
  </form>
  <p id="status" role="status" aria-live="polite"></p>
</main>
<script type="application/json" id="operations">${json}</script>
<script src="/account-pages/account.browser.js"></script>
</body>
</html>
`;
}

/** The texts of the pages' operations, as the manifest holds them (so the trusted-documents gate lets them run). */
function manifestOperations(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { operations: Array<{ name: string; body: string }> };
  return new Map(manifest.operations.map((op) => [op.name, op.body]));
}

export function registerAccountPages(app: FastifyInstance) {
  const known = manifestOperations();
  const pageHeaders = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex',
  };
  for (const [key, spec] of Object.entries(ACCOUNT_PAGES)) {
    const operations = Object.fromEntries(
      spec.operations.map((name) => {
        const body = known.get(name);
        if (!body) throw new Error(`account pages: ${name} is not in operations/manifest.json (npm run codegen)`);
        return [name, body];
      }),
    );
    const html = pageHtml(key, spec, operations);
    app.get(spec.path, (_req, reply) => reply.headers(pageHeaders).send(html));
  }
  // Invitation links e-mailed in the path form (/invitations/<token>) stay valid for 30 days: they open the page.
  // Only a segment that is not a number: GET /invitations/<id> is no route (PATCH /invitations/:id is).
  app.get<{ Params: { token: string } }>(`/invitations/:token(${INVITATION_TOKEN_SEGMENT})`, (req, reply) =>
    reply
      .headers({ 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' })
      .redirect(`/accept-invitation?token=${encodeURIComponent(req.params.token)}`, 303),
  );
  const assets = new Map<string, [string, Buffer]>([
    ['account.browser.js', ['application/javascript; charset=utf-8', readFileSync(join(here, 'account.browser.js'))]],
    ['account.css', ['text/css; charset=utf-8', readFileSync(join(here, 'account.css'))]],
  ]);
  app.get<{ Params: { file: string } }>('/account-pages/:file', (req, reply) => {
    const asset = assets.get(req.params.file);
    if (!asset) return reply.callNotFound();
    return reply.type(asset[0]).header('cache-control', 'public, max-age=3600').send(asset[1]);
  });
}
