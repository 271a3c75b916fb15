/**
 * The PIN check measured on real-shaped Indian addresses (scripts/pin-sample.ts): the share of wrong
 * state/district combinations it catches and of right ones it flags.
 *   npm run pin:measure -- [count] [seed]
 */
import { pinDirectory } from "~/core/places/pin-directory.server";
import { buildSample, measure } from "./pin-sample";

const count = Number(process.argv[2] ?? 2000);
const seed = Number(process.argv[3] ?? 48);
const loadStarted = performance.now();
const directory = pinDirectory();
const loadMs = performance.now() - loadStarted;
const sample = buildSample(count, seed, directory);
const checkStarted = performance.now();
const m = measure(sample, directory);
const perCheckUs = ((performance.now() - checkStarted) * 1000) / sample.length;
const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
console.log(`directory: ${directory.source}, data of ${directory.dataDate}, ${directory.pinCount} PIN codes`);
console.log(`sample: ${m.rows} addresses (seed ${seed}), ${m.right} right`);
console.log(`right addresses flagged: ${m.flaggedRight} / ${m.right} = ${pct(m.flaggedRight, m.right)}`);
let total = 0;
let caught = 0;
for (const [kind, w] of Object.entries(m.wrong)) {
  console.log(`wrong (${kind}) caught: ${w.caught} / ${w.total} = ${pct(w.caught, w.total)}`);
  total += w.total;
  caught += w.caught;
}
console.log(`all wrong combinations caught: ${caught} / ${total} = ${pct(caught, total)}`);
console.log(`directory read in ${loadMs.toFixed(0)} ms; one check ${perCheckUs.toFixed(1)} µs on average`);
