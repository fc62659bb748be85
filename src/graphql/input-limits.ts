// Bounds on what a client nests: a JSON-typed input (theme, colors, extra-field settings and values) and the
// document text itself. Everything here walks without recursion: a value nested 5,000 deep would otherwise
// overflow the stack (graphql-js's parser, JSON.stringify, our own checks) and respond with 500.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, Kind, type ValueNode } from 'graphql';

/** Levels a JSON input may nest ({"a": {"b": 1}} is 2); settings and themes need a handful. */
export const JSON_INPUT_MAX_DEPTH = 16;
/** Bytes a JSON input may take, written as JSON. */
export const JSON_INPUT_MAX_BYTES = 16_384;
/**
 * Brackets ({, [, () a document may nest. Above the deepest selection GRAPHQL_MAX_DEPTH allows (100) plus
 * arguments, and far below the nesting that overflows graphql-js's recursive parser (a few thousand).
 */
export const DOCUMENT_MAX_NESTING = 256;

// "exceeds the maximum of": src/graphql/apollo.ts reports a validation error so worded as BAD_USER_INPUT.
const refusal = (what: string, found: string, limit: number, name: string) =>
  new GraphQLError(`${what} ${found}, which exceeds the maximum of ${limit} (${name})`, {
    extensions: { code: 'BAD_USER_INPUT', limit: name },
  });

const tooDeep = (depth: number) =>
  refusal('a JSON input nests', `${depth} levels deep`, JSON_INPUT_MAX_DEPTH, 'JSON_INPUT_MAX_DEPTH');
const tooLarge = () =>
  refusal('a JSON input takes', `over ${JSON_INPUT_MAX_BYTES} bytes`, JSON_INPUT_MAX_BYTES, 'JSON_INPUT_MAX_BYTES');

/** Throws when a JSON value (a variable's, as parsed from the request) nests too deep or is too large. */
export function checkJsonValue(value: unknown): void {
  let bytes = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v !== null && typeof v === 'object') {
      if (depth + 1 > JSON_INPUT_MAX_DEPTH) throw tooDeep(depth + 1);
      bytes += 2;
      for (const [key, inner] of Object.entries(v)) {
        bytes += (Array.isArray(v) ? 0 : Buffer.byteLength(key) + 3) + 1;
        stack.push([inner, depth + 1]);
      }
    } else bytes += typeof v === 'string' ? Buffer.byteLength(v) + 2 : String(v).length;
    if (bytes > JSON_INPUT_MAX_BYTES) throw tooLarge();
  }
}

/** The same for a literal written in the document, which holds no variable. */
export function checkJsonLiteral(node: ValueNode): void {
  let bytes = 0;
  const stack: Array<[ValueNode, number]> = [[node, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v.kind === Kind.OBJECT || v.kind === Kind.LIST) {
      if (depth + 1 > JSON_INPUT_MAX_DEPTH) throw tooDeep(depth + 1);
      bytes += 2;
      if (v.kind === Kind.OBJECT)
        for (const field of v.fields) {
          bytes += Buffer.byteLength(field.name.value) + 4;
          stack.push([field.value, depth + 1]);
        }
      else
        for (const item of v.values) {
          bytes += 1;
          stack.push([item, depth + 1]);
        }
    } else if (v.kind === Kind.STRING) bytes += Buffer.byteLength(v.value) + 2;
    else if (v.kind === Kind.INT || v.kind === Kind.FLOAT || v.kind === Kind.ENUM) bytes += v.value.length;
    // Validation cannot bound a variable of another type written inside the literal ({ a: $s }), and execution
    // would refuse it as an internal error: the whole value comes as one variable, or none of it does.
    else if (v.kind === Kind.VARIABLE)
      throw new GraphQLError(
        `a JSON input written in the document holds the variable $${v.name.value}: ` +
          'send the whole value as one variable',
        { extensions: { code: 'BAD_USER_INPUT' } },
      );
    else bytes += 4; // null, true, false
    if (bytes > JSON_INPUT_MAX_BYTES) throw tooLarge();
  }
}

/**
 * The refusal of a document whose brackets nest deeper than DOCUMENT_MAX_NESTING, or null. Read before it is
 * parsed: strings, block strings and comments are skipped, so a bracket inside one does not count.
 */
export function documentNestingProblem(source: string): GraphQLError | null {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        i += 3;
        while (i < source.length && !source.startsWith('"""', i)) i += source.startsWith('\\"""', i) ? 4 : 1;
        i += 2;
      } else {
        i++;
        while (i < source.length && source[i] !== '"' && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      if (++depth > DOCUMENT_MAX_NESTING)
        return refusal(
          'the document nests',
          `brackets ${depth} levels deep`,
          DOCUMENT_MAX_NESTING,
          'DOCUMENT_MAX_NESTING',
        );
    } else if (c === '}' || c === ']' || c === ')') depth--;
  }
  return null;
}

/**
 * The preHandler of /graphql: a query text (POST body, each of a batch, or GET parameter) nested too deep is refused
 * before Apollo parses it, with 400 and a GraphQL error body as Apollo responds to bad requests.
 */
export function documentNestingPreHandler() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const carried = request.method === 'GET' ? [request.query] : [request.body].flat();
    for (const item of carried) {
      const query = (item as { query?: unknown } | null)?.query;
      const problem = typeof query === 'string' ? documentNestingProblem(query) : null;
      if (!problem) continue;
      request.outcome.errorCodes = ['BAD_USER_INPUT'];
      return reply
        .code(400)
        .type('application/json; charset=utf-8')
        .send({ errors: [{ message: problem.message, extensions: problem.extensions }] });
    }
  };
}
