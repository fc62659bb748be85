// Answers written with each shared subtree once (src/graphql/shared-json.ts): the bytes are JSON.stringify's to the
// last byte, whatever the text holds, and text that looks like a mark makes the answer be written plainly.
import { describe, expect, it } from 'vitest';
import { answerJson, answerText, SHARED_JSON_MARK, sharedObjectFactory } from '../../src/graphql/shared-json.ts';

const newUser = sharedObjectFactory(['id', 'name', 'company', 'tags']);
const newCompany = sharedObjectFactory(['id', 'name']);

function user(id: number, name: string, company: object) {
  return Object.assign(newUser(), { id, name, company, tags: ['a', 'ü'] });
}

/** Two users sharing a company, each reached under several predictions, with text JSON must escape. */
function answer() {
  const acme = Object.assign(newCompany(), { id: 1, name: 'Acme "quoted" \\ \n 日本 😀 \u2028' });
  const ana = user(1, 'Ana\u0000', acme);
  const bo = user(2, 'Bo', acme);
  return {
    predictions: [ana, bo, ana, ana, null, bo].map((u, i) => ({ id: i, user: u, note: `n${i}` })),
    me: ana,
    empty: [],
  };
}

describe('answers with shared subtrees written once', () => {
  it('writes the bytes JSON.stringify writes, each shared object once', () => {
    const value = answer();
    const json = answerJson(value);
    expect(Buffer.isBuffer(json)).toBe(true);
    expect((json as Buffer).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
    expect(answerText(value)).toBe(JSON.stringify(value));
  });

  it('answers the plain text when nothing is shared, and writes a shared object at the top whole', () => {
    expect(answerJson({ a: [1, 'x', null, { b: true }] })).toBe('{"a":[1,"x",null,{"b":true}]}');
    const company = Object.assign(newCompany(), { id: 7, name: 'Top' });
    expect(answerText(company)).toBe('{"id":7,"name":"Top"}');
    expect(answerText([company, company])).toBe('[{"id":7,"name":"Top"},{"id":7,"name":"Top"}]');
  });

  it('shows only its keys outside answerJson: JSON.stringify, Object.keys and for..in see a plain answer', () => {
    const company = Object.assign(newCompany(), { id: 3, name: 'C' });
    expect(JSON.stringify({ company })).toBe('{"company":{"id":3,"name":"C"}}');
    expect(Object.keys(company)).toEqual(['id', 'name']);
    const seen: string[] = [];
    for (const key in company) seen.push(key);
    expect(seen).toEqual(['id', 'name']);
    expect(company).toEqual({ id: 3, name: 'C' });
  });

  it('takes a key named toJSON as its own: it can be written (strict mode) and is written as a key', () => {
    const make = sharedObjectFactory(['toJSON', 'id']);
    const company = make();
    company.toJSON = { name: 'aliased' };
    company.id = 4;
    expect(answerText({ a: company, b: company })).toBe(
      '{"a":{"toJSON":{"name":"aliased"},"id":4},"b":{"toJSON":{"name":"aliased"},"id":4}}',
    );
  });

  it('writes plainly an answer whose own text looks like a mark, wherever it stands', () => {
    const mark = SHARED_JSON_MARK;
    for (const lookalike of [`${mark}0`, `${mark}x`, `${mark}99`, `${mark}1234567890`, mark]) {
      const value = { ...answer(), trap: lookalike, [lookalike]: 1 };
      const json = answerJson(value);
      expect(Buffer.from(json).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
    }
  });
});
