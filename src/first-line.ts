/** An error as one log line: its message's first non-empty line (driver errors run to many). */
export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (
    message
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? 'unknown error'
  );
}

/** An error's stack for a log line, with the password of any URL in it masked (a connection string in a message). */
export function stackWithoutPasswords(err: Error): string | undefined {
  return err.stack?.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+@/gi, '$1***@');
}
