// Subscription documents (src/graphql/subscriptions/documents.ts): parsed and validated once per distinct text, so
// subscribers sending the same document hold one syntax tree, and the kept texts stay bounded; and whether a text's
// execution may be shared across callers, decided once per text from the allow-list of caller-independent fields.
import { isObjectType, specifiedRules } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SubscriptionDocuments } from '../../../src/graphql/subscriptions/documents.ts';
import { CALLER_INDEPENDENT_FIELDS } from '../../../src/graphql/types/caller-independent.ts';
import { getSchema } from '../../../src/graphql/schema.ts';

const schema = getSchema(false);
const text = (t: number) => `subscription { matchUpdated(tournamentId: ${t}) { missedEvents match { id } } }`;

describe('SubscriptionDocuments', () => {
  it('hands every subscription of one text the same parsed document', () => {
    const documents = new SubscriptionDocuments(schema, specifiedRules, 1000);
    const first = documents.get(text(1));
    const second = documents.get(text(1));
    expect(first.kind).toBe('document');
    expect(second.kind === 'document' && first.kind === 'document' && second.document === first.document).toBe(true);
    const other = documents.get(text(2));
    expect(other.kind === 'document' && first.kind === 'document' && other.document !== first.document).toBe(true);
    expect(documents.size).toBe(2);
  });

  it('keeps no refusal: a text that does not parse or validate is refused each time it is sent', () => {
    const documents = new SubscriptionDocuments(schema, specifiedRules, 1000);
    expect(documents.get('subscription {').kind).toBe('unparsable');
    expect(documents.get('subscription { noSuchField }').kind).toBe('invalid');
    expect(documents.get('subscription { noSuchField }').kind).toBe('invalid');
    expect(documents.size).toBe(0);
  });

  it('keeps at most its bound of texts, dropping the least recently used', () => {
    const documents = new SubscriptionDocuments(schema, specifiedRules, 1000, 3);
    const kept = documents.get(text(1));
    documents.get(text(2));
    documents.get(text(3));
    documents.get(text(1)); // used again: text 2 is now the oldest
    documents.get(text(4));
    expect(documents.size).toBe(3);
    const again = documents.get(text(1));
    expect(again.kind === 'document' && kept.kind === 'document' && again.document === kept.document).toBe(true);
    expect(documents.size).toBe(3);
  });
});

describe('documents shared across callers', () => {
  const across = (source: string) => {
    const parsed = new SubscriptionDocuments(schema, specifiedRules, 1000).get(source);
    if (parsed.kind !== 'document') throw new Error(`${source}: ${parsed.kind}`);
    return parsed.acrossCallers;
  };

  it('are those that select only fields that read nothing of the caller', () => {
    expect(across(text(1))).toBe(true);
    expect(
      across(`subscription($t: Int!) { matchUpdated(tournamentId: $t) { __typename missedEvents cursor
        match { id status predictionsCloseAt homeTeam { name country { name } }
          round { name tournament { name } } } } }`),
    ).toBe(true);
    expect(
      across(`subscription { matchUpdated(tournamentId: 1) { ...M } } fragment M on MatchUpdate { match { id } }`),
    ).toBe(true);
  });

  it('exclude any document that reads the caller, wherever it does', () => {
    const caller = [
      // The caller's own predictions, directly, in a fragment, in an inline fragment, deep under the round.
      'subscription { matchUpdated(tournamentId: 1) { match { id predictions(onlyMine: true) { id } } } }',
      'subscription { matchUpdated(tournamentId: 1) { match { ...P } } } fragment P on Match { predictions { id } }',
      'subscription { matchUpdated(tournamentId: 1) { match { ... on Match { predictions { id } } } } }',
      'subscription { matchUpdated(tournamentId: 1) { match { round { matches { predictions { id } } } } } }',
      // A field that is not on the list: per caller until someone shows it reads nothing of the caller.
      'subscription { matchUpdated(tournamentId: 1) { match { statistics { predictions } } } }',
      // rankingChanged reads the caller's standing whatever is selected; notifications are the caller's own.
      'subscription { rankingChanged(tournamentId: 1) { tournamentId pageChanged } }',
      'subscription { notificationReceived { missedEvents } }',
    ];
    for (const source of caller) expect(across(source), source).toBe(false);
  });

  it('name fields the schema has: the allow-list cannot outlive a rename', () => {
    for (const [typeName, fields] of CALLER_INDEPENDENT_FIELDS) {
      const type = schema.getType(typeName);
      expect(isObjectType(type), typeName).toBe(true);
      if (!isObjectType(type)) continue;
      for (const field of fields) expect(type.getFields()[field], `${typeName}.${field}`).toBeDefined();
    }
  });
});
