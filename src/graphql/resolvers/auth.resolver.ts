import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { companyFromHeaders } from '../../auth/request-auth.ts';
import { signAccessToken } from '../../auth/tokens.ts';
import { requireViewer, type Context } from '../context.ts';
import { badInput, notFound, rateLimited, unauthenticated } from '../errors.ts';
import { User } from '../types/user.ts';

@ObjectType({ simpleResolvers: true })
export class LoginPayload {
  @Field(() => String, { description: 'Send as "Authorization: Bearer <token>".' }) token!: string;
  @Field(() => User) user!: object;
}

// One answer for every credential failure, so the API does not tell which e-mails exist: same message, and
// an unknown e-mail still costs one scrypt so the answer takes as long as for a wrong password.
const BAD_CREDENTIALS = 'e-mail or password is wrong';
// RFC 5321's limit on a forward path; longer is not an e-mail address.
const MAX_EMAIL_LENGTH = 254;
let dummyHash: Promise<string> | undefined;

@Resolver()
export class AuthResolver {
  @Mutation(() => LoginPayload, { description: 'Public. The company comes from x-app-path / x-app-host; without them the e-mail must be unique across companies.' })
  async login(@Arg('email', () => String) email: string, @Arg('password', () => String) password: string, @Ctx() ctx: Context) {
    const normalized = email.trim().toLowerCase();
    if (!normalized || password.length === 0) throw badInput('email and password are required', normalized ? 'password' : 'email');
    if (normalized.length > MAX_EMAIL_LENGTH) throw badInput(`email is longer than ${MAX_EMAIL_LENGTH} characters`, 'email');
    const throttle = ctx.client.loginThrottle;
    const wait = throttle.check(ctx.client.ip, normalized);
    if (wait !== null) throw rateLimited(`too many failed logins: try again in ${wait} s`, wait);
    const company = await companyFromHeaders(ctx.prisma, ctx.headers);
    if (company === null) throw notFound('company for the x-app-host / x-app-path header');
    const users = await ctx.prisma.user.findMany({ where: { email: normalized, deletedAt: null, ...(company ? { companyId: company.id } : {}) }, take: 2 });
    if (users.length > 1) throw badInput('this e-mail exists in several companies: send x-app-path or x-app-host', 'email');
    const user = users[0];
    const hash = user?.passwordHash ?? (await (dummyHash ??= hashPassword('not-a-password-of-anyone')));
    if (!(await verifyPassword(password, hash)) || !user) {
      throttle.failed(ctx.client.ip, normalized);
      throw unauthenticated(BAD_CREDENTIALS);
    }
    throttle.succeeded(ctx.client.ip, normalized);
    const updated = await ctx.prisma.user.update({ where: { id: user.id }, data: { loginCount: { increment: 1 }, lastActiveDate: ctx.now } });
    const token = await signAccessToken({ userId: user.id, companyId: user.companyId, role: user.role }, ctx.config.jwtSecret, ctx.config.jwtTtlSeconds);
    return { token, user: updated };
  }

  @Query(() => User, { description: 'The caller.' })
  me(@Ctx() ctx: Context) {
    return requireViewer(ctx);
  }
}
