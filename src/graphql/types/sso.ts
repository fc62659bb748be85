// Single sign-on's GraphQL types: a company's own provider as its administrators see it, and what sets it.
import { Field, InputType, ObjectType } from 'type-graphql';

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
