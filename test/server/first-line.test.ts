// What the server logs of an error it did not expect at start-up: one line of message, and a stack that never
// carries a connection string's password.
import { describe, expect, it } from 'vitest';
import { firstLine, stackWithoutPasswords } from '../../src/first-line.ts';

describe('start-up error text', () => {
  it('firstLine: the first non-empty line, trimmed', () => {
    expect(firstLine(new Error('\n  cannot connect\nsecond line'))).toBe('cannot connect');
    expect(firstLine('plain')).toBe('plain');
    expect(firstLine(new Error(''))).toBe('unknown error');
  });

  it('stackWithoutPasswords: masks the password of every URL, keeps the rest', () => {
    const err = new Error('cannot reach postgresql://prode:s3cret@db:5432/prode nor redis://u:p%40ss@cache/0');
    const stack = stackWithoutPasswords(err)!;
    expect(stack).toContain('postgresql://prode:***@db:5432/prode');
    expect(stack).toContain('redis://u:***@cache/0');
    expect(stack).not.toMatch(/s3cret|p%40ss/);
    expect(stack).toMatch(/at .*first-line\.test\.ts/);
    expect(stackWithoutPasswords(new Error('http://example.test/a:b@c'))).toContain('http://example.test/a:b@c');
  });
});
