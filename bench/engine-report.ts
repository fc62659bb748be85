// bench/ENGINE.md from bench/ENGINE.json: the table of each engine part on and off, and each part's verdict.
import os from 'node:os';
import { PLANS } from './engine-args.ts';

/** Every round's ratio at least this, for a part to count as kept. */
const KEPT_MARGIN = 1.05;

/** One part at one concurrency on one store: the file keeps the latest of each. */
export interface Result {
  part: string;
  store: string;
  concurrency: number;
  workload: string;
  on: { median: number; cells: string; statements: number; errors: number };
  off: { median: number; cells: string; statements: number; errors: number };
  ratio: number;
  min: number;
  max: number;
  /** The 1-minute load average before and after the part's run (2 cores shared with other work). */
  load: [number, number];
  at: string;
  node: string;
  command: string;
}

/**
 * "kept" when every round had the part on ahead by at least KEPT_MARGIN; "slower on" when every round had it behind;
 * else the rounds' ratios hold 1.0 (or sit within the margin of it): inside the noise.
 */
export function verdictOf(r: Result): string {
  if (r.on.errors || r.off.errors || !Number.isFinite(r.min)) return 'not comparable (errors or an empty cell)';
  if (r.min >= KEPT_MARGIN) return 'kept';
  if (r.max < 1) return 'slower on';
  return 'inside the noise';
}

export function render(results: Result[]): string {
  const order = [...Object.keys(PLANS)];
  const rank = (p: string) => (order.includes(p) ? order.indexOf(p) : order.length);
  const sorted = [...results].sort(
    (x, y) => x.store.localeCompare(y.store) || rank(x.part) - rank(y.part) || x.concurrency - y.concurrency,
  );
  let md =
    `# Each engine part on and off, side by side\n\n` +
    `Written by \`npm run bench:engine\` (bench/engine.ts); each row's command reproduces it. Two of our servers ` +
    `are up at once on the generated dataset: **on** is the full engine, **off** the same with ` +
    `\`ENGINE_OFF=<part>\` (for \`all\`, \`ENGINE=plain\`). The response cache is off on both sides unless the row ` +
    `measures it, so every request executes. Their cells (each after its unrecorded warm-up) alternate, who goes ` +
    `first alternating too; the ratio is on's median req/s over off's, the spread the lowest and highest ratio of ` +
    `one round's two cells. A part is **kept** when every round had it ahead by 5% or more (the spread starts at ` +
    `1.05 or above), **inside the noise** when the spread holds 1.0 or starts within 5% of it, **slower on** when ` +
    `every round had it behind.\n\n` +
    `The machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, shared by both servers, the load ` +
    `generator and other work; **load** is the 1-minute load average before and after the row's run. A load above ` +
    `the core count means other processes took turns with the cells: alternating and medians are the defence, and ` +
    `a row run under a lower load is the better figure.\n\n` +
    `| Part | Replaces | Workload | Store | Conc. | on / off median req/s | Ratio of medians | Spread | Verdict | ` +
    `Load | Command |\n|---|---|---|---|---|---|---|---|---|---|---|\n`;
  for (const r of sorted)
    md +=
      `| \`${r.part}\` | ${PLANS[r.part]?.replaces ?? '-'} | ${r.workload} | ${r.store} | ${r.concurrency} | ` +
      `${r.on.median.toFixed(1)} / ${r.off.median.toFixed(1)} | **${r.ratio.toFixed(2)}x** | ` +
      `${r.min.toFixed(2)}-${r.max.toFixed(2)} | ${verdictOf(r)} | ${r.load[0].toFixed(1)} → ` +
      `${r.load[1].toFixed(1)} | \`${r.command}\` |\n`;
  md += `\n## Each cell\n\n| Part | Store | Conc. | on req/s | off req/s | SQL statements on / off | Node |\n`;
  md += `|---|---|---|---|---|---|---|\n`;
  for (const r of sorted)
    md +=
      `| \`${r.part}\` | ${r.store} | ${r.concurrency} | ${r.on.cells} | ${r.off.cells} | ` +
      `${r.on.statements} / ${r.off.statements} | ${r.node} |\n`;
  const notes = [...new Set(sorted.map((r) => r.part))].filter((p) => PLANS[p]?.note);
  if (notes.length) {
    md += `\n## Notes\n\n`;
    for (const p of notes) md += `- \`${p}\`: ${PLANS[p]!.note}\n`;
  }
  return md;
}
