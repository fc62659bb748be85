// Hostile values for generated requests: odd characters, long strings, number-like text, extreme numbers and any
// JSON, biased to what breaks parsers and validators; and "plausible" values that reach past validation.
import fc from 'fast-check';
import { DEMO_PASSWORD } from '../../helpers/app.ts';

/** Odd characters: NUL, bidi marks, BOM, lone surrogates, combining marks, emoji sequences, injection shapes. */
const ODD = [
  '\u0000',
  '\u0001',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u202e',
  '\u202d',
  '\u200f',
  '\u200e',
  '\u2066',
  '\u061c',
  '\u200b',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udfff',
  '\udbff\udfff',
  '\u0301\u0301\u0301',
  'e\u0301',
  '😀',
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '\u{10ffff}',
  'ﷺ',
  'ß',
  'İ',
  'ǅ',
  '\n',
  '\r\n',
  '\t',
  '"',
  "'",
  '\\',
  '`',
  '${x}',
  '{{x}}',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '%00',
  '%',
  '../../etc/passwd',
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '0x1F',
  '0b1',
  '1_000',
  '١٢٣',
  '１２３',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  '',
  ' ',
  'demo',
  'GLOBEX',
  'player1@demo.test',
  DEMO_PASSWORD,
];
const oddChar = fc.constantFrom(...ODD);
/** Lone surrogates replaced by U+FFFD, as a URL encoder must (fetch would throw on them). */
export const wellFormed = (x: string) =>
  x.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const shortString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.oneof(oddChar, loneSurrogate, fc.string({ minLength: 1, maxLength: 1 })), maxLength: 12 }),
  oddChar,
);
/** Up to 100,000 characters: one odd character or word repeated, or random text. */
const longString = fc
  .tuple(
    fc.integer({ min: 1_000, max: 100_000 }),
    fc.oneof(
      oddChar.filter((c) => c.length > 0),
      fc.string({ minLength: 1, maxLength: 5 }),
    ),
  )
  .map(([n, unit]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));
export const hostileString = fc.oneof({ weight: 8, arbitrary: shortString }, { weight: 1, arbitrary: longString });
export const nanishString = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '0x10',
  '1.5',
  '1,5',
  '1e3',
  ' 1',
  '1 ',
  '+1',
  '-0',
  '00001',
  '１',
  '١',
  '2147483648',
  '99999999999999999999',
  '',
  'one',
);
export const extremeInt = fc.constantFrom(
  0,
  -1,
  1,
  2,
  3,
  5,
  10,
  100,
  101,
  1000,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 - 1,
  -(2 ** 53),
  2 ** 53 + 2,
  1e21,
  -1e21,
  1e308,
);
export const hostileNumber = fc.oneof(
  extremeInt,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(1.5, -0.5, 0.1, 5e-324, -0),
);
/** Any JSON value, biased to the hostile. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    nanishString,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'id', 'prototype')),
      tie('v'),
      { maxKeys: 4 },
    ),
  ),
})).v;

/** Mostly hostile, sometimes a value of the demo data, so that some requests get past validation. */
export const plausibleString = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'player1@demo.test',
      'new.hire@demo.test',
      DEMO_PASSWORD,
      'Ada Lovelace',
      'demo',
      'glo',
      'https://example.com/x.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ),
  },
  { weight: 1, arbitrary: fc.constant('<invitation-jwt>') }, // replaced by a valid invitation token at send time
);
export const plausibleInt = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) },
  { weight: 3, arbitrary: extremeInt },
  { weight: 1, arbitrary: fc.integer() },
);
