// Responses written with each shared subtree once (src/engine/graphql/shared-subtrees/json.ts): the bytes are
// JSON.stringify's to the
// last byte, whatever the text holds, and text that looks like a mark makes the response be written plainly.
import { describe, expect, it } from 'vitest';
import {
  responseJson,
  responseText,
  fieldJson,
  resultText,
  SHARED_JSON_MARK,
  settledJson,
  sharedObjectFactory,
} from '../../../../src/engine/graphql/shared-subtrees/json.ts';

const newUser = sharedObjectFactory(['id', 'name', 'company', 'tags']);
const newCompany = sharedObjectFactory(['id', 'name']);

function user(id: number, name: string, company: object) {
  return Object.assign(newUser(), { id, name, company, tags: ['a', 'ü'] });
}

/** Two users sharing a company, each reached under several predictions, with text JSON must escape. */
function sampleResponse() {
  const acme = Object.assign(newCompany(), { id: 1, name: 'Acme "quoted" \\ \n 日本 😀 \u2028' });
  const ana = user(1, 'Ana\u0000', acme);
  const bo = user(2, 'Bo', acme);
  return {
    predictions: [ana, bo, ana, ana, null, bo].map((u, i) => ({ id: i, user: u, note: `n${i}` })),
    me: ana,
    empty: [],
  };
}

describe('responses with shared subtrees written once', () => {
  it('writes the bytes JSON.stringify writes, each shared object once', () => {
    const value = sampleResponse();
    const json = responseJson(value);
    expect(Buffer.isBuffer(json)).toBe(true);
    expect((json as Buffer).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
    expect(responseText(value)).toBe(JSON.stringify(value));
  });

  it('returns the plain text when nothing is shared, and writes a shared object at the top whole', () => {
    expect(responseJson({ a: [1, 'x', null, { b: true }] })).toBe('{"a":[1,"x",null,{"b":true}]}');
    const company = Object.assign(newCompany(), { id: 7, name: 'Top' });
    expect(responseText(company)).toBe('{"id":7,"name":"Top"}');
    expect(responseText([company, company])).toBe('[{"id":7,"name":"Top"},{"id":7,"name":"Top"}]');
  });

  it('shows only its keys outside responseJson: JSON.stringify, Object.keys and for..in see a plain response', () => {
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
    expect(responseText({ a: company, b: company })).toBe(
      '{"a":{"toJSON":{"name":"aliased"},"id":4},"b":{"toJSON":{"name":"aliased"},"id":4}}',
    );
  });

  it('writes plainly a response whose own text looks like a mark, wherever it stands', () => {
    const mark = SHARED_JSON_MARK;
    for (const lookalike of [`${mark}0`, `${mark}x`, `${mark}99`, `${mark}1234567890`, mark]) {
      const value = { ...sampleResponse(), trap: lookalike, [lookalike]: 1 };
      const json = responseJson(value);
      expect(Buffer.from(json).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
    }
  });

  describe('a settled response (the response cache holds it): its JSON written once, then the same bytes', () => {
    const bytesOf = (json: string | Buffer) => (typeof json === 'string' ? Buffer.from(json) : json);

    it('returns the same bytes every time, for the response and through responseJson', () => {
      const data = { companiesSearch: [sampleResponse(), sampleResponse()] };
      const json = settledJson(data);
      expect(bytesOf(json).equals(Buffer.from(JSON.stringify(data)))).toBe(true);
      // The same object, not written again: a hit sends the bytes written when the response was cached.
      expect(settledJson(data)).toBe(json);
      expect(responseJson(data)).toBe(json);
      // A response not settled is written each time.
      const other = { companiesSearch: [sampleResponse()] };
      expect(responseJson(other)).not.toBe(responseJson(other));
    });

    it("cuts a REST route's field out of the response's JSON, byte for byte what writing the field gives", () => {
      for (const value of [[sampleResponse(), sampleResponse()], sampleResponse(), 'text 日本 😀', null, 0, []]) {
        const data = { myTournaments: value };
        const whole = settledJson(data);
        const cut = fieldJson(data, 'myTournaments');
        expect(bytesOf(cut).equals(Buffer.from(JSON.stringify(value)))).toBe(true);
        // A view of the settled bytes, not a copy (for the Buffer: the text is a string slice).
        if (Buffer.isBuffer(cut)) expect(cut.buffer).toBe((whole as Buffer).buffer);
      }
    });

    it('writes the field on its own when the response is not settled or holds other fields', () => {
      const plain = { post: sampleResponse() };
      expect(bytesOf(fieldJson(plain, 'post')).equals(Buffer.from(JSON.stringify(plain.post)))).toBe(true);
      const two = { post: sampleResponse(), me: { id: 1 } };
      settledJson(two);
      expect(bytesOf(fieldJson(two, 'post')).equals(Buffer.from(JSON.stringify(two.post)))).toBe(true);
      // A key whose value is undefined is not written, by JSON.stringify nor here.
      const withUndefined = { post: sampleResponse(), extra: undefined };
      settledJson(withUndefined);
      expect(bytesOf(fieldJson(withUndefined, 'post')).equals(Buffer.from(JSON.stringify(withUndefined.post)))).toBe(
        true,
      );
    });

    it("writes a GraphQL result around a settled response's JSON, and any other result as JSON.stringify does", () => {
      const data = { me: sampleResponse() };
      settledJson(data);
      expect(resultText({ data })).toBe(JSON.stringify({ data }));
      expect(resultText({ data, extensions: undefined })).toBe(JSON.stringify({ data }));
      const withExtensions = { data, extensions: { sqlStatements: 1, cost: 3 }, errors: undefined };
      expect(resultText(withExtensions)).toBe(JSON.stringify(withExtensions));
      const extensionsFirst = { extensions: { note: 'x' }, data };
      expect(resultText(extensionsFirst)).toBe(JSON.stringify(extensionsFirst));
      const unsettled = { data: { me: sampleResponse() } };
      expect(resultText(unsettled)).toBe(JSON.stringify(unsettled));
      expect(resultText({ data: null, errors: [{ message: 'x' }] })).toBe('{"data":null,"errors":[{"message":"x"}]}');
    });
  });
});
