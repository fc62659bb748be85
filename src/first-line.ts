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
