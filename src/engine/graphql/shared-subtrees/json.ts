// Writes a response's JSON with each shared subtree written once and its bytes copied where it repeats: the same
// bytes as JSON.stringify, built faster. Why: docs/decisions/0003-write-shared-subtrees-once.md.
import { randomBytes } from 'node:crypto';

/** Twelve characters of [A-Za-z0-9_-]: JSON writes them as they are, so a mark reads `"<MARK><id>"`. */
const MARK = randomBytes(9).toString('base64url');
/** Exported for the tests of what happens when a response's own text looks like a mark. */
export const SHARED_JSON_MARK = MARK;
const OPENING = Buffer.from(`"${MARK}`);
const QUOTE = 0x22;
const ZERO = 0x30;

/**
 * Below about this many bytes of JSON, writing an object again costs less than its mark (the `toJSON` call, the
 * mark's text, the search and the copy).
 */
export const SHARED_JSON_MIN_BYTES = 64;

interface Writing {
  ids: Map<object, number>;
  objects: object[];
  /** Marks written: as many must be found, or some text looked like a mark. */
  marks: number;
  /** The shared object being written whole. */
  root: object | null;
}

let writing: Writing | null = null;

function toJSON(this: object): unknown {
  const w = writing;
  if (w === null || w.root === this) return this;
  w.marks++;
  let id = w.ids.get(this);
  if (id === undefined) {
    id = w.objects.length;
    w.ids.set(this, id);
    w.objects.push(this);
  }
  return MARK + id;
}

/**
 * A function returning a new `{ key1: null, key2: null, ... }` that is written once per response by `responseJson`, its
 * keys in order and in place from the start (as an object literal's are). `toJSON` is not enumerable: the object
 * shows only its keys.
 */
export function sharedObjectFactory(keys: string[]): () => Record<string, unknown> {
  const assignments = keys.map((key) => `this[${JSON.stringify(key)}] = null;`).join(' ');
  const SharedObject = new Function(assignments) as unknown as new () => Record<string, unknown>;
  // Writable: a response key named `toJSON` (an alias) is then the object's own, shadowing this one, not an error.
  Object.defineProperty(SharedObject.prototype, 'toJSON', { value: toJSON, writable: true });
  return () => new SharedObject();
}

function stringifyMarked(value: unknown, w: Writing, root: object | null): string {
  w.root = root;
  writing = w;
  try {
    return JSON.stringify(value);
  } finally {
    writing = null;
  }
}

/** Responses that no longer change (the response cache's), each with its JSON once written. */
const settled = new WeakMap<object, string | Buffer>();

/**
 * The JSON of a response that will not change again (the response cache holds it and hands the same object to every
 * request it serves), written once and remembered with it: `responseJson` and `fieldJson` then return those bytes.
 */
export function settledJson(response: object): string | Buffer {
  let json = settled.get(response);
  if (json === undefined) {
    json = responseJson(response);
    settled.set(response, json);
  }
  return json;
}

/**
 * The JSON of `value`, as JSON.stringify writes it: its text when nothing in it is shared, else its UTF-8 bytes,
 * each shared object written once.
 */
export function responseJson(value: unknown): string | Buffer {
  if (typeof value === 'object' && value !== null) {
    const known = settled.get(value);
    if (known !== undefined) return known;
  }
  const w: Writing = { ids: new Map(), objects: [], marks: 0, root: null };
  const text = stringifyMarked(value, w, null);
  if (w.objects.length === 0) return text;
  // Writing an object can meet further shared objects: the list grows as it is walked.
  const texts: string[] = [];
  for (let i = 0; i < w.objects.length; i++) texts.push(stringifyMarked(w.objects[i], w, w.objects[i]));
  const expansion = new Expansion(texts);
  const bytes = expansion.expand(text);
  if (bytes === null || expansion.found !== w.marks) return JSON.stringify(value);
  return bytes;
}

/**
 * The JSON of `response[field]`. Of a settled response whose only field it is (a REST route's stored operation, served
 * from the response cache), cut out of the response's own JSON, which is `{"field":` that JSON `}`.
 */
export function fieldJson(response: Record<string, unknown>, field: string): string | Buffer {
  const json = settled.get(response);
  if (json === undefined || !onlyKey(response, field)) return responseJson(response[field]);
  const head = Buffer.byteLength(`{${JSON.stringify(field)}:`);
  return typeof json === 'string' ? json.slice(head, -1) : json.subarray(head, json.length - 1);
}

/**
 * A GraphQL result's JSON, as `responseText` writes it; when its data is a settled response (a response cache hit),
 * with that response's JSON as it was written when cached, and only the rest (the statement report) written now.
 */
export function resultText(result: Record<string, unknown>): string {
  const data = result.data;
  const json = typeof data === 'object' && data !== null ? settled.get(data) : undefined;
  if (json === undefined) return responseText(result);
  let text = '';
  for (const key in result) {
    const part = key === 'data' ? json : (responseJson(result[key]) as string | Buffer | undefined);
    // JSON.stringify leaves out a key whose value it cannot write (undefined, a function).
    if (part === undefined) continue;
    text += `${text ? ',' : '{'}${JSON.stringify(key)}:${typeof part === 'string' ? part : part.toString('utf8')}`;
  }
  return `${text || '{'}}`;
}

function onlyKey(object: Record<string, unknown>, key: string): boolean {
  // As JSON.stringify sees it: a key whose value is undefined is not written.
  let keys = 0;
  for (const k in object) {
    if (object[k] === undefined) continue;
    if (++keys > 1 || k !== key) return false;
  }
  return keys === 1;
}

/** `responseJson` as a string (Apollo's `stringifyResult` returns one). */
export function responseText(value: unknown): string {
  const json = responseJson(value);
  return typeof json === 'string' ? json : json.toString('utf8');
}

const EXPANDING = Buffer.alloc(0);

/** Replaces marks by the bytes of the objects they stand for, each object's bytes built once. */
class Expansion {
  found = 0;
  readonly bytes: (Buffer | undefined)[];

  constructor(readonly texts: string[]) {
    this.bytes = new Array(texts.length);
  }

  /** The bytes of `text` with its marks replaced, or null when something that looks like a mark is not one. */
  expand(text: string): Buffer | null {
    const source = Buffer.from(text, 'utf8');
    let at = source.indexOf(OPENING);
    if (at < 0) return source;
    // Triples: the source's start and end of a stretch, then the bytes that follow it.
    const cuts: (number | Buffer)[] = [];
    let size = 0;
    let from = 0;
    while (at >= 0) {
      const end = source.indexOf(QUOTE, at + OPENING.length);
      const object = end < 0 ? null : this.object(source, at + OPENING.length, end);
      if (object === null) return null;
      this.found++;
      cuts.push(from, at, object);
      size += at - from + object.length;
      from = end + 1;
      at = source.indexOf(OPENING, from);
    }
    size += source.length - from;
    const out = Buffer.allocUnsafe(size);
    let written = 0;
    for (let i = 0; i < cuts.length; i += 3) {
      written += source.copy(out, written, cuts[i] as number, cuts[i + 1] as number);
      written += (cuts[i + 2] as Buffer).copy(out, written);
    }
    source.copy(out, written, from);
    return out;
  }

  /** The bytes of the object whose id is written between `start` and `end`, or null if that is not an id. */
  private object(source: Buffer, start: number, end: number): Buffer | null {
    if (end === start || end - start > 9) return null;
    let id = 0;
    for (let i = start; i < end; i++) {
      const digit = source[i] - ZERO;
      if (digit < 0 || digit > 9) return null;
      id = id * 10 + digit;
    }
    if (id >= this.texts.length) return null;
    const known = this.bytes[id];
    if (known === EXPANDING) return null;
    if (known) return known;
    this.bytes[id] = EXPANDING;
    const expanded = this.expand(this.texts[id]);
    if (expanded === null) return null;
    this.bytes[id] = expanded;
    return expanded;
  }
}
