// Single sign-on's GraphQL types: a company's own provider as its administrators see it, what sets it, and the
// sign-in methods a login page offers.
import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: "A company's own OpenID Connect provider (never its secret)." })
export class CompanySso {
  @Field(() => String, { description: "The issuer's identifier (an https URL)." }) issuer!: string;
  @Field(() => String, { description: "The gateway's client id at the issuer." }) clientId!: string;
  @Field(() => [String], {
    description:
      'Domains whose verified e-mails may join the company through this provider even where sign-up is closed.',
  })
  emailDomains!: string[];
}

@InputType({ description: "A company's own OpenID Connect provider." })
export class CompanySsoInput {
  @Field(() => String, {
    description:
      'The issuer: an https URL publishing /.well-known/openid-configuration whose `issuer` is this URL ' +
      '(http only on loopback outside production).',
  })
  issuer!: string;
  @Field(() => String, { description: "The gateway's client id at the issuer (at most 500 characters)." })
  clientId!: string;
  @Field(() => String, { description: 'The client secret (at most 2000 characters); never shown again.' })
  clientSecret!: string;
  @Field(() => [String], {
    description: 'Lowercase domains (example.com), at most 50; [] for none.',
  })
  emailDomains!: string[];
}

export const SsoProviderEnum = { google: 'google', company: 'company' } as const;

registerEnumType(SsoProviderEnum, {
  name: 'SsoProvider',
  description: 'A single sign-on provider, as GET /auth/sso/start names it in `provider`.',
  valuesConfig: {
    google: { description: 'Google (the platform-wide client).' },
    company: { description: "The company's own OpenID Connect provider." },
  },
});

@ObjectType({ simpleResolvers: true, description: 'A provider a company offers on its login page.' })
export class SignInProvider {
  @Field(() => SsoProviderEnum, { description: 'Which provider.' }) provider!: string;
  @Field(() => String, {
    nullable: true,
    description: "Google's issuer; null for the company's own provider (its issuer is not shown before sign-in).",
  })
  issuer!: string | null;
  @Field(() => String, {
    description:
      'The absolute GET /auth/sso/start address that begins a sign-in with it, company, provider and redirect ' +
      'filled in: a link or button goes there.',
  })
  startUrl!: string;
}

@ObjectType({
  simpleResolvers: true,
  description: 'How people sign in to a company: what its login page offers, before anyone is signed in.',
})
export class SignInMethods {
  @Field(() => Int, {
    description:
      "The company's loginStrategy: 0, e-mail and password and the providers; 1, the company's own provider only.",
  })
  loginStrategy!: number;
  @Field(() => Boolean, {
    description:
      'E-mail and password (login, POST /auth/login) are offered; false under loginStrategy 1, where only ' +
      'managers of the platform still log in with a password.',
  })
  password!: boolean;
  @Field(() => [SignInProvider], {
    description:
      'The providers offered, Google first: Google where the platform has it configured and the company sets ' +
      "neither disableGoogleLogin nor loginStrategy 1; the company's own provider where it set one. [] for none.",
  })
  providers!: SignInProvider[];
}
