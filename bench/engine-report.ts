// bench/ENGINE.md from bench/ENGINE.json: the table of each engine part on and off, and each part's verdict.
import os from 'node:os';
import { PLANS } from './engine-args.ts';

/** The ratio of medians a part must reach to count as kept (or fall under, as 1 / it, to count as slower on). */
const KEPT_MARGIN = 1.05;
/** How unlikely the rounds' signs must be were on and off the same (one-sided sign test). */
const SIGN_TEST_P = 0.05;
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

/** The one-sided sign test: the chance of at least `ahead` of `rounds` coin flips coming up heads. */
export function signTestP(ahead: number, rounds: number): number {
  let p = 0;
  let choose = 1; // C(rounds, 0)
  for (let k = 0; k <= rounds; k++) {
    if (k >= ahead) p += choose / 2 ** rounds;
    choose = (choose * (rounds - k)) / (k + 1);
  }
  return p;
}

/** Each round's ratio, on's cell over off's (the cells are listed in round order). */
export function roundRatios(r: Result): number[] {
  const on = r.on.cells.split(',').map(Number);
  const off = r.off.cells.split(',').map(Number);
  return on.map((x, i) => x / off[i]!);
}

/**
 * "kept" when the ratio of medians is KEPT_MARGIN or more and the rounds that had the part ahead are too many to be
 * chance (fewer than SIGN_TEST_P of the time: 5 of 5, 7 of 7, 8 of 9, 9 of 11); "slower on" the same way round;
 * else inside the noise. One round disturbed by other work then neither keeps nor condemns a part on its own.
 */
export function verdictOf(r: Result): string {
  if (r.on.errors || r.off.errors || !Number.isFinite(r.min)) return 'not comparable (errors or an empty cell)';
  const ratios = roundRatios(r);
  const ahead = ratios.filter((x) => x > 1).length;
  const behind = ratios.filter((x) => x < 1).length;
  if (r.ratio >= KEPT_MARGIN && signTestP(ahead, ratios.length) < SIGN_TEST_P) return 'kept';
  if (r.ratio <= 1 / KEPT_MARGIN && signTestP(behind, ratios.length) < SIGN_TEST_P) return 'slower on';
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
    `one round's two cells. A part is **kept** when the ratio of medians is 1.05 or more and the rounds that had it ` +
    `ahead are too many to be chance (a one-sided sign test under 5%: 5 of 5, 7 of 7, 8 of 9, 9 of 11 rounds), ` +
    `**slower on** the same way round, **inside the noise** otherwise.\n\n` +
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
