// Who a sign-in lets in (src/app/sso.ts): the person an issuer names, found by issuer and subject; else an account
// of the same verified e-mail in that company, linked once; else a new person where the company takes them
// (sign-up open, the e-mail's domain listed for its own provider, or an invitation to it) within its seats.
// Deactivated and deleted people are refused.
import type { VerifiedPerson } from '../auth/oidc.ts';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { CompanyRow, InvitationRow, UserRow } from '../db/rows.ts';
import { DEFAULT_USER_JSON } from '../domain/defaults.ts';
import { DomainError } from '../domain/errors.ts';
import { isRole, roleAtLeast } from '../domain/roles.ts';
import { hasControlCharacter, mayJoin, type SsoProvider } from '../domain/sso.ts';
import type { RequestScope } from './scope.ts';
import { announceRevocation, REVOKE_SESSIONS } from './sessions.ts';
import { refuseWhenFull, takeSeat } from './seats.ts';

/**
 * A sign-in refused: `code` is what the app is told (?error=<code>); `redirect` the app's path to tell it at, or
 * null when there is no safe place to go (the route answers a page of its own).
 */
export class SsoRefusal extends Error {
  constructor(
    readonly code: string,
    readonly redirect: string | null,
    message?: string,
  ) {
    super(message ?? code);
  }
}

const MAX_NAME_LENGTH = 200;

/**
 * A company's own issuer is run by whoever sets it (the company's admins, its reseller) and can assert any e-mail:
 * it never opens an account above admin (a reseller's, a manager's), neither by linking nor through a link.
 */
const beyondCompanyIssuer = (provider: SsoProvider, role: string) =>
  provider === 'company' && (!isRole(role) || roleAtLeast(role, 'reseller'));

export interface Admission {
  company: CompanyRow;
  provider: SsoProvider;
  person: VerifiedPerson;
  emailDomains: string[];
  redirect: string;
}

/** The account the sign-in opens, or an SsoRefusal. */
export async function admitPerson(scope: RequestScope, a: Admission): Promise<UserRow> {
  const refuse = (code: string) => new SsoRefusal(code, a.redirect);
  const { issuer, subject } = a.person;
  const identity = await scope.db.ssoIdentity.findUnique({
    where: { companyId_issuer_subject: { companyId: a.company.id, issuer, subject } },
    include: { user: true },
  });
  if (identity) {
    if (identity.user.deletedAt) throw refuse('account_deactivated');
    if (beyondCompanyIssuer(a.provider, identity.user.role)) throw refuse('role_not_admitted');
    return identity.user;
  }
  // Only a verified e-mail links or creates an account: an unverified one could be anyone's.
  if (!a.person.email) throw refuse('email_missing');
  if (!a.person.emailVerified) throw refuse('email_not_verified');
  const email = a.person.email;
  const existing = await scope.db.user.findFirst({ where: { companyId: a.company.id, email } });
  if (existing) return linkOnce(scope, a, existing);
  // An invitation to this address lets its person in where sign-up alone would not (a company that signs in with
  // its own provider mails its invitations the sign-in link). Never a manager's, and through a company's own issuer
  // none above admin: that issuer vouches for its addresses, and its admins (or reseller) run it.
  const invitation = await scope.db.invitation.findFirst({
    where: {
      companyId: a.company.id,
      email,
      acceptedAt: null,
      revokedAt: null,
      role: a.provider === 'company' ? { in: ['player', 'admin'] } : { not: 'manager' },
      OR: [{ expiresAt: null }, { expiresAt: { gt: scope.now } }],
    },
  });
  if (!invitation && !mayJoin(a.company, a.provider, email, a.emailDomains)) throw refuse('not_admitted');
  try {
    await refuseWhenFull(scope, a.company);
  } catch (err) {
    if (err instanceof DomainError) throw refuse('company_full');
    throw err;
  }
  return createPerson(scope, a, email, invitation);
}

/** Links the account to this issuer's subject: once per issuer (a second subject for it is refused). */
async function linkOnce(scope: RequestScope, a: Admission, user: UserRow): Promise<UserRow> {
  if (user.deletedAt) throw new SsoRefusal('account_deactivated', a.redirect);
  if (beyondCompanyIssuer(a.provider, user.role)) throw new SsoRefusal('role_not_admitted', a.redirect);
  const linked = await scope.db.ssoIdentity.findUnique({
    where: { userId_issuer: { userId: user.id, issuer: a.person.issuer } },
  });
  if (linked) throw new SsoRefusal('account_linked', a.redirect);
  const linkedUser = await scope
    .write(async (tx) => {
      await tx.ssoIdentity.create({ data: identityOf(a, user.id) });
      if (user.emailVerified) return user;
      // The provider vouched for an address nobody had proven: whoever registered it before (perhaps not its
      // owner) loses the password they chose and every session, and the account no longer waits for its link.
      return tx.user.update({
        where: { id: user.id },
        data: { emailVerified: true, passwordHash: null, ...REVOKE_SESSIONS },
      });
    })
    .catch((err) => {
      // The same person's two sign-ins at once: one linked it.
      if (isUniqueViolation(err)) throw new SsoRefusal('account_linked', a.redirect);
      throw err;
    });
  if (!user.emailVerified) announceRevocation(scope, user.id);
  return linkedUser;
}

const identityOf = (a: Admission, userId: number) => ({
  companyId: a.company.id,
  issuer: a.person.issuer,
  subject: a.person.subject,
  userId,
});

function nameOf(person: VerifiedPerson, email: string): string {
  const name = [...(person.name ?? '')]
    .map((c) => (hasControlCharacter(c) ? ' ' : c))
    .join('')
    .trim();
  return (name || email.slice(0, email.indexOf('@'))).slice(0, MAX_NAME_LENGTH);
}

/**
 * A new person: a player, or what their invitation makes them (its role and areas, the invitation accepted with
 * it); no password (they sign in through the provider), the e-mail verified by it.
 */
async function createPerson(
  scope: RequestScope,
  a: Admission,
  email: string,
  invitation: InvitationRow | null,
): Promise<UserRow> {
  const placed = invitation && !a.company.disableAreas;
  return scope
    .write(async (tx: Tx) => {
      if (invitation) {
        // Of an accept and a sign-in at once, one takes the invitation.
        const claimed = await tx.invitation.updateMany({
          where: { id: invitation.id, acceptedAt: null, revokedAt: null },
          data: { acceptedAt: scope.now },
        });
        if (claimed.count === 0) throw new SsoRefusal('try_again', a.redirect);
      }
      await takeSeat(scope, tx, a.company.id);
      const user = await tx.user.create({
        data: {
          ...DEFAULT_USER_JSON,
          companyId: a.company.id,
          name: nameOf(a.person, email),
          email,
          emailVerified: true,
          ...(invitation ? { role: invitation.role } : {}),
          areaLevel1Id: placed ? invitation.areaLevel1Id : null,
          areaLevel2Id: placed ? invitation.areaLevel2Id : null,
          areaLevel3Id: placed ? invitation.areaLevel3Id : null,
          externalId: invitation?.externalId ?? email,
          loginProviderId: a.person.subject,
          loginProviderName: a.provider === 'google' ? 'google' : null,
          passwordHash: null,
        },
      });
      await tx.ssoIdentity.create({ data: identityOf(a, user.id) });
      return user;
    })
    .catch((err) => {
      if (err instanceof DomainError && err.extensions.code === 'FORBIDDEN') {
        throw new SsoRefusal('company_full', a.redirect);
      }
      // Two first sign-ins of one person at once: the other made the account.
      if (isUniqueViolation(err)) throw new SsoRefusal('try_again', a.redirect);
      throw err;
    });
}
