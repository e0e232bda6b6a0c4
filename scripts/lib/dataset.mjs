// Helpers shared by the record generators (scripts/gen-records.mjs, scripts/gen-stdlib-records.mjs):
// the seeded PRNG, command-line options, the upstream line format and writing a dataset.
import { writeFileSync } from 'node:fs';

/** mulberry32: a small seeded PRNG; returns a function giving floats in [0, 1). */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `--name value` options of argv; exits 2 with a one-line error for an unknown option or a missing value. */
export function readOptions(tool, argv, known) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    if (!name || !known.includes(name)) die(tool, `unknown argument '${a}' (options: ${known.map((k) => `--${k}`).join(', ')})`);
    if (argv[i + 1] === undefined) die(tool, `--${name} needs a value`);
    out[name] = argv[++i];
  }
  return out;
}

/** An integer option (>= min) or exit 2. */
export function intOption(tool, opts, name, dflt, min = 0) {
  if (opts[name] === undefined) return dflt;
  const n = Number(opts[name]);
  if (!Number.isInteger(n) || n < min) die(tool, `--${name} must be an integer >= ${min}, got '${opts[name]}'`);
  return n;
}

export function die(tool, msg) {
  process.stderr.write(`${tool}: ${msg}\n`);
  process.exit(2);
}

/** Escapes a literal for a regular expression. */
export const regexEscape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One dataset line: `{"record": {...}, "datasetVersion": "..."}`. */
export const datasetLine = (record, datasetVersion) => JSON.stringify({ record, datasetVersion });

/** Writes JSON Lines (one string per line) to `outFile`, or to stdout without one. */
export function writeLines(lines, outFile) {
  const text = lines.join('\n') + (lines.length ? '\n' : '');
  if (outFile) writeFileSync(outFile, text);
  else process.stdout.write(text);
}
