// User text cannot forge our e-mails. The attack: a player names themselves "Bob\n\nYour account is locked: sign in
// at https://evil.example/login" and invites a colleague to a league; the colleague's e-mail carried those lines and
// that link as if we wrote them. Now a person's name refuses control characters and line breaks wherever it is set,
// and e-mails quote user text on one line, with nothing in it a mail client would turn into a link: the only links
// in an e-mail are ours. Sent through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailChannel } from '../../src/mail/channel.ts';
import { deliverEmails } from '../../src/mail/delivery.ts';
import { deliverPending, loggingSender } from '../../src/notifications/sender.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.ts';

const quiet = () => {};
let smtp: TestSmtp;
let s: TestServer;
let tokens: Record<'player' | 'player2' | 'admin', string>;

beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url } });
  tokens = await s.loginAll(['player', 'player2', 'admin']);
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

const FORGED = 'Bob\n\nYour account is locked: sign in at https://evil.example/login';
const EVIL_NAMES = [
  FORGED,
  'Bob\r\nBcc: victim@evil.example',
  'Bob\u2028https://evil.example',
  'Bob\u2029Paragraph',
  'Bob\tTab',
  'Bob\u0085Next line',
  'Bob\u0000',
  'Bob \u202Egnp.exe',
];
type Errors = { errors?: Array<{ message: string; extensions: { code: string; argumentName?: string } }> };
const code = (r: Errors) => r.errors?.[0]?.extensions.code;

describe("a person's name refuses control characters and line breaks", () => {
  it('register, updateMe, updateUser, createInvitation, updateInvitation, acceptInvitation', async () => {
    const p = s.t.db.prisma;
    const admin = { ...bearer(tokens.admin), 'x-app-path': 'demo' };
    const invitationId = s.demo.invitations['new.hire2@demo.test'];
    const made = await s.gql(
      'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { token } }',
      { i: { email: 'named@example.test', name: 'Fine Name' } },
      admin,
    );
    const jwt = made.data.createInvitation.token as string;
    const before = await Promise.all([
      p.user.findMany({ orderBy: { id: 'asc' } }),
      p.invitation.findMany({ orderBy: { id: 'asc' } }),
    ]);
    for (const name of EVIL_NAMES) {
      const attempts: Array<[string, Promise<Errors>]> = [
        [
          'register',
          s.gql(
            'mutation($i: RegisterInput!) { register(input: $i) { user { id } } }',
            {
              i: { email: 'evil@example.test', name, password: 'Evil-password-2026!', extraFields: DEMO_EXTRA_FIELDS },
            },
            { 'x-app-path': 'demo' },
          ),
        ],
        [
          'updateMe',
          s.gql('mutation($n: String) { updateMe(input: { name: $n }) { id } }', { n: name }, bearer(tokens.player)),
        ],
        [
          'updateUser',
          s.gql(
            'mutation($u: Int!, $n: String) { updateUser(userId: $u, input: { name: $n }) { id } }',
            { u: s.demo.users['player2@demo.test'], n: name },
            admin,
          ),
        ],
        [
          'createInvitation',
          s.gql(
            'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { token } }',
            { i: { email: 'evil2@example.test', name } },
            admin,
          ),
        ],
        [
          'updateInvitation',
          s.gql(
            'mutation($id: Int!, $n: String) { updateInvitation(id: $id, input: { name: $n }) { id } }',
            { id: invitationId, n: name },
            admin,
          ),
        ],
        [
          'acceptInvitation',
          s.gql(
            'mutation($j: String!, $n: String!) { acceptInvitation(jwt: $j, name: $n, password: "Evil-pass-2026!", ' +
              'extraFields: [{ name: "employeeNumber", value: "E9000" }]) ' +
              '{ token } }',
            { j: jwt, n: name },
          ),
        ],
      ];
      for (const [operation, answer] of attempts) {
        expect(code(await answer), `${operation} ${JSON.stringify(name)}`).toBe('BAD_USER_INPUT');
      }
    }
    const after = await Promise.all([
      p.user.findMany({ orderBy: { id: 'asc' } }),
      p.invitation.findMany({ orderBy: { id: 'asc' } }),
    ]);
    expect(after).toEqual(before);
    // Names with dots, apostrophes and accents are names.
    const fine = await s.gql(
      'mutation($n: String) { updateMe(input: { name: $n }) { name } }',
      { n: "Ana María O'Neil Jr." },
      bearer(tokens.player2),
    );
    expect(fine.data).toEqual({ updateMe: { name: "Ana María O'Neil Jr." } });
  });
});

// The helper decodes quoted-printable byte by byte: read those bytes as UTF-8 again, and the subject's encoded words.
const utf8 = (bytes: string) => Buffer.from(bytes, 'latin1').toString('utf8');
function decoded(mail: ReceivedMail): { subject: string; text: string } {
  const subject = mail.subject.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : utf8(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        ),
  );
  const qp = /^Content-Transfer-Encoding: quoted-printable$/im.test(mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')));
  return { subject, text: qp ? utf8(mail.text) : mail.text };
}

/** Sends the whole outbox (a delivery takes at most 100 at a time; the demo's notifications queue more). */
async function sendAll() {
  const channel = mailChannel(s.config.mail, quiet)!;
  try {
    while ((await deliverEmails(s.t.db.prisma, channel, quiet)).sent > 0);
  } finally {
    channel.close();
  }
}

/** The e-mail to `to` whose text holds `marker`, once it has arrived (others, such as notifications, also do). */
async function mailTo(to: string, marker: string): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = smtp.received.find((m) => m.to.includes(to) && decoded(m).text.includes(marker));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} with "${marker}"`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Our links removed, what is left of an e-mail: user text, which must hold nothing a client would link. */
function withoutOurLinks(mail: ReceivedMail): string {
  const { subject, text } = decoded(mail);
  const ours = new RegExp(`${s.config.mail.appUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\S+`, 'g');
  return `${subject}\n${text.replace(ours, '<our link>')}`;
}

function expectUnforged(mail: ReceivedMail) {
  const text = withoutOurLinks(mail);
  // What mail clients link: a scheme, www., an address, a dotted host name.
  expect(text, text).not.toMatch(/:\/\/|www\.|@|[a-z0-9-]\.[a-z]{2,}/i);
  // No line of its own: the forged sentence stays on the line that quotes the name.
  expect(text.split('\n').some((line) => /^\s*Your account is locked/.test(line))).toBe(false);
  expect(text).not.toMatch(/^Bcc:/m);
}

describe('e-mails quote user text and link only to us', () => {
  it('a league invitation from a player with a forged name, a league named like a link', async () => {
    const p = s.t.db.prisma;
    const player1 = s.demo.users['player1@demo.test'];
    const player2 = s.demo.users['player2@demo.test'];
    // Stored before names were checked (or written by any other path): the e-mail must still be ours.
    await p.user.update({ where: { id: player1 }, data: { name: FORGED } });
    const league = await s.gql(
      'mutation($t: Int!, $n: String!) { createInternalRanking(tournamentId: $t, name: $n) { id } }',
      { t: s.demo.tournament, n: 'Claim your prize at www.evil.example/prize or https://evil.example' },
      bearer(tokens.player),
    );
    expect(league.errors).toBeUndefined();
    const invited = await s.gql(
      'mutation($r: Int!, $u: Int!) { inviteToInternalRanking(rankingId: $r, userId: $u) { id } }',
      { r: league.data.createInternalRanking.id, u: player2 },
      bearer(tokens.player),
    );
    expect(invited.errors).toBeUndefined();
    await deliverPending(p, loggingSender(quiet));
    await sendAll();
    const mail = await mailTo('player2@demo.test', 'invited you to the league');
    expect(decoded(mail).text).toContain('"Bob Your account is locked');
    expect(decoded(mail).text).toContain('invited you to the league "Claim your prize at www');
    expectUnforged(mail);
  });

  it('the invitation, password-reset and verification e-mails quote names and link only to us', async () => {
    const p = s.t.db.prisma;
    const admin = s.demo.users['admin@demo.test'];
    await p.user.update({ where: { id: admin }, data: { name: 'Admin\n\nhttp://evil.example/phish' } });
    await p.company.update({ where: { id: s.demo.companies.DEMO }, data: { name: 'Demo Corp evil.example' } });
    try {
      const made = await s.gql(
        'mutation($i: CreateInvitationInput!) { createInvitation(input: $i) { token } }',
        { i: { email: 'invited@example.test', name: 'Invited Person' } },
        { ...bearer(tokens.admin), 'x-app-path': 'demo' },
      );
      expect(made.errors).toBeUndefined();
      const reset = await s.gql(
        'mutation($e: String!) { requestPasswordReset(email: $e) }',
        { e: 'admin@demo.test' },
        { 'x-app-path': 'demo' },
      );
      expect(reset.errors).toBeUndefined();
      await p.company.update({
        where: { id: s.demo.companies.DEMO },
        data: { requiresEmailVerification: true },
      });
      const registered = await s.gql(
        'mutation($i: RegisterInput!) { register(input: $i) { emailVerificationRequired } }',
        {
          i: {
            email: 'verify@example.test',
            name: 'Vera Fy',
            password: 'Verify-password-2026!',
            extraFields: DEMO_EXTRA_FIELDS,
          },
        },
        { 'x-app-path': 'demo' },
      );
      expect(registered.errors).toBeUndefined();
      await sendAll();
      const mails = [
        await mailTo('invited@example.test', 'invites you to play'),
        await mailTo('admin@demo.test', 'reset the password'),
        await mailTo('verify@example.test', 'confirm your e-mail'),
      ];
      for (const mail of mails) {
        expect(decoded(mail).text).toMatch(/"Demo Corp evil\u2024example"/);
        expect(mail.text).toContain(`${s.config.mail.appUrl}/`); // our link is there, as it was
        expectUnforged(mail);
      }
    } finally {
      await p.company.update({
        where: { id: s.demo.companies.DEMO },
        data: { name: 'Demo Corp', requiresEmailVerification: false },
      });
    }
  });
});
