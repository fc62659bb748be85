import { Field, Int, ObjectType } from 'type-graphql';
import { AuditKind } from '../enums.ts';
import { DateTime, JSON } from '../scalars.ts';

@ObjectType({
  simpleResolvers: true,
  description:
    'A privileged change in a company: who made it, when, about whom, why, and the changed values before and after.',
})
export class AuditEntry {
  @Field(() => Int, { description: 'Database id.' }) id!: number;
  @Field(() => DateTime, { description: 'When the change was made (UTC).' }) at!: Date;
  @Field(() => AuditKind, { description: 'What was changed.' }) kind!: string;
  @Field(() => String, { nullable: true, description: 'Why, as the person who made it said; null when not asked.' })
  reason?: string | null;
  @Field(() => JSON, {
    nullable: true,
    description:
      'The changed values as they were (a JSON object: for a result, its score fields; for settings, the fields ' +
      'that changed); null when there was nothing before. Secrets (password hashes, tokens) are never recorded.',
  })
  before?: unknown;
  @Field(() => JSON, {
    nullable: true,
    description: 'The changed values as they are after the change, as before shows them; null when nothing is kept.',
  })
  after?: unknown;
  @Field(() => Int, { nullable: true, description: 'The tournament of a result; null for other kinds.' })
  tournamentId?: number | null;
  actorId!: number;
  targetUserId!: number | null;
}

@ObjectType({ simpleResolvers: true, description: "A page of a company's audit log, newest first." })
export class AuditLog {
  @Field(() => Int, { description: 'Entries matching the filters (the whole log, not the page).' }) total!: number;
  @Field(() => [AuditEntry], { description: 'The page, newest first; [] past the end.' }) entries!: AuditEntry[];
}
