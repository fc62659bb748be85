// Changes to a real REST response that a strict schema must refuse: a key dropped, a key added, a value of another
// type. One change per place in the response's shape (array items share a place), applied in place and undone.

type Json = unknown;
type Container = Record<string, Json> | Json[];

export interface Mutation {
  /** Where, as a JSON pointer, and what. */
  at: string;
  what: string;
  /** A key dropped or added, an item added, a value of another type, or another value of the same type. */
  kind: 'drop' | 'add' | 'item' | 'retype' | 'revalue';
  /** The value set, for retype and revalue. */
  to?: Json;
  apply: () => void;
  undo: () => void;
}

/** Values of another JSON type than `value`'s. */
function otherTypes(value: Json): Json[] {
  if (value === null) return [12345, 'text'];
  if (typeof value === 'string') return [12345];
  if (typeof value === 'number') return Number.isInteger(value) ? ['12', 1.5] : ['12'];
  if (typeof value === 'boolean') return ['true'];
  if (Array.isArray(value)) return [{}, [12345]];
  return ['text', []];
}

/** Another value of the same type: what only an enum, a format or a bound refuses. */
function otherValues(value: Json): Json[] {
  if (typeof value === 'string') return ['not-a-date-nor-an-enum-value'];
  if (typeof value === 'number' && Number.isInteger(value)) return [value + 7];
  return [];
}

const kindOf = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** `seen`: places already changed in another response of the same shape, left out here. */
export function mutationsOf(answer: Json, seen = new Set<string>()): Mutation[] {
  const out: Mutation[] = [];
  const walk = (parent: Container, key: string | number, shape: string, pointer: string) => {
    const get = () => (parent as Record<string | number, Json>)[key];
    const set = (v: Json) => ((parent as Record<string | number, Json>)[key] = v);
    const value = get();
    const place = `${shape}:${kindOf(value)}`;
    if (seen.has(place)) return;
    seen.add(place);
    const setTo = (kind: 'retype' | 'revalue') => (other: Json) =>
      out.push({
        at: pointer,
        kind,
        what: `set to ${JSON.stringify(other)}`,
        to: other,
        apply: () => set(other),
        undo: () => set(value),
      });
    otherTypes(value).forEach(setTo('retype'));
    otherValues(value).forEach(setTo('revalue'));
    if (!Array.isArray(parent)) {
      const obj = parent as Record<string, Json>;
      const index = Object.keys(obj).indexOf(key as string);
      out.push({
        at: pointer,
        kind: 'drop',
        what: 'dropped',
        apply: () => delete obj[key as string],
        // Put back in its place: the undo keeps the key order, which nothing checks but a reader of a diff.
        undo: () => {
          const entries = Object.entries(obj);
          entries.splice(index, 0, [key as string, value]);
          for (const k of Object.keys(obj)) delete obj[k];
          Object.assign(obj, Object.fromEntries(entries));
        },
      });
    }
    if (Array.isArray(value)) {
      out.push({
        at: pointer,
        kind: 'item',
        what: 'given an item {}',
        apply: () => value.push({}),
        undo: () => value.pop(),
      });
      value.forEach((_, i) => walk(value, i, `${shape}/*`, `${pointer}/${i}`));
    } else if (value && typeof value === 'object') {
      const obj = value as Record<string, Json>;
      out.push({
        at: pointer,
        kind: 'add',
        what: 'given an unknown key',
        apply: () => (obj.unknownKey = 'x'),
        undo: () => delete obj.unknownKey,
      });
      for (const k of Object.keys(obj)) walk(obj, k, `${shape}/${k}`, `${pointer}/${k}`);
    }
  };
  const root = { answer };
  walk(root, 'answer', '', '');
  // The response itself is not dropped nor retyped: only what is inside it.
  return out.filter((m) => m.at !== '' || m.kind === 'add' || m.kind === 'item');
}
