// How many exports run at once: an export reads a whole tournament or company and may stream for minutes, so one
// caller runs one at a time and the process at most EXPORT_MAX_CONCURRENT; a request past either is refused at once
// (429), before anything is read. Per replica: with several, each holds its own count.
export class ExportSlots {
  private readonly running = new Set<number>();

  constructor(private readonly max: number) {}

  /**
   * Takes a slot for the user: the function that gives it back (once, whenever called), or why there is none:
   * 'caller' while the user's own export runs, 'server' while the process runs its most.
   */
  take(userId: number): { release: () => void } | { refused: 'caller' | 'server' } {
    if (this.running.has(userId)) return { refused: 'caller' };
    if (this.running.size >= this.max) return { refused: 'server' };
    this.running.add(userId);
    let held = true;
    return {
      release: () => {
        if (held) this.running.delete(userId);
        held = false;
      },
    };
  }

  /** Exports running now. */
  get size(): number {
    return this.running.size;
  }
}
