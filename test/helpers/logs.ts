// Reading what a server or script logged: its JSON lines, and whether any holds an e-mail address.

/** Anything that looks like an e-mail address (a database URL's user@127.0.0.1 does not). */
export const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/i;

export interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** Every non-blank line of `output`, parsed: a line that is not JSON fails the test. */
export const jsonLines = (output: string): Line[] =>
  output
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);
