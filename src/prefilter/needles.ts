/**
 * Needles: substrings the prefilter (./index.ts) looks for with the runtime's native substring
 * search before any token scan, when its names are few. Every call or method name contains one of
 * the first stage's needles; and the gate's (below) say what else a file must show.
 */
import { requiredTokens, type NeedsSpec } from './needs.js';

/** Above this many substrings, one native search per substring costs more than one token scan. */
export const MAX_NEEDLES = 8;

/** Up to this many names, needles are chosen among their substrings (cheap for that few). */
export const MAX_COVER_NAMES = 64;
/** Shortest substring used as a needle: shorter ones occur everywhere and search slower. */
const MIN_NEEDLE = 5;

/**
 * Percent of the bytes of Python source that are each identifier character (measured on the
 * standard library: `e` 6.7%, `_` 1.6%, `m` 1.2%, `j` 0.08%); any other byte counts as rare.
 */
const SOURCE_FREQUENCY: Record<string, number> = {
  e: 6.74,
  s: 4.57,
  t: 4.48,
  a: 3.53,
  r: 3.46,
  o: 2.89,
  n: 2.88,
  i: 2.86,
  l: 2.82,
  f: 1.96,
  c: 1.83,
  d: 1.78,
  _: 1.58,
  p: 1.43,
  u: 1.42,
  m: 1.19,
  h: 0.97,
  g: 0.78,
  b: 0.7,
  '0': 0.63,
  E: 0.61,
  x: 0.61,
  y: 0.58,
  T: 0.54,
  w: 0.44,
  k: 0.39,
  '1': 0.39,
  I: 0.35,
  v: 0.33,
  A: 0.32,
  N: 0.32,
};

/**
 * Estimated cost (milliseconds per 31.5 MB, measured on the standard library) of one native
 * search (Buffer#indexOf: Node's StringSearch) for a needle: below 7 bytes it is a memchr for the
 * first byte, each stop compared, so a needle starting with a rarer byte is cheaper (`metada`
 * ~11 ms); from 7 bytes on it is a Boyer-Moore-Horspool search (`metadata` ~21 ms).
 */
export function searchCost(needle: string): number {
  return needle.length >= 7 ? 21 : 6 + 3.5 * (SOURCE_FREQUENCY[needle[0]!] ?? 0.2);
}

/** Needles that are whole names: the shortest names, each kept unless it contains one kept already. */
export function coverByNames(names: string[]): string[] | undefined {
  const kept: string[] = [];
  for (const n of [...names].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))) {
    if (kept.some((k) => n.includes(k))) continue;
    kept.push(n);
    if (kept.length > MAX_NEEDLES) return undefined;
  }
  return kept;
}

/**
 * Fewer needles: substrings shared by several names (`_state` is in `save_state` and
 * `agent_load_state`), chosen greedily: the one in most names not yet covered, the cheapest to
 * search among those (searchCost: `metada` rather than `metadata`), then the longest. Each search
 * is one pass over the file, so one needle fewer is one pass fewer.
 */
export function coverBySubstrings(names: string[]): string[] | undefined {
  const holders = new Map<string, Set<number>>();
  names.forEach((n, i) => {
    if (n.length < MIN_NEEDLE) {
      holders.set(n, (holders.get(n) ?? new Set()).add(i));
      return;
    }
    for (let a = 0; a + MIN_NEEDLE <= n.length; a++) {
      for (let b = a + MIN_NEEDLE; b <= n.length; b++) {
        const sub = n.slice(a, b);
        let set = holders.get(sub);
        if (!set) holders.set(sub, (set = new Set()));
        set.add(i);
      }
    }
  });
  const open = new Set(names.map((_, i) => i));
  const kept: string[] = [];
  const better = (sub: string, best: string) => {
    const a = searchCost(sub);
    const b = searchCost(best);
    return a < b || (a === b && (sub.length > best.length || (sub.length === best.length && sub < best)));
  };
  while (open.size) {
    let best: string | undefined;
    let bestCount = 0;
    for (const [sub, set] of holders) {
      let c = 0;
      for (const i of set) if (open.has(i)) c++;
      if (c > bestCount || (c === bestCount && c > 0 && better(sub, best!))) {
        best = sub;
        bestCount = c;
      }
    }
    if (!best) return undefined;
    kept.push(best);
    if (kept.length > MAX_NEEDLES) return undefined;
    for (const i of holders.get(best)!) open.delete(i);
  }
  // Whole names are found by the substring search too (a name shorter than MIN_NEEDLE is its own needle).
  return kept;
}

/** Needles covering `names` (each contains one), at most MAX_NEEDLES of them; undefined when there would be more. */
export function needlesFor(names: string[]): Buffer[] | undefined {
  const kept = names.length <= MAX_COVER_NAMES ? coverBySubstrings(names) : coverByNames(names);
  return kept && kept.length <= MAX_NEEDLES ? kept.map((k) => Buffer.from(k, 'latin1')) : undefined;
}

const costOf = (needles: Buffer[]): number => needles.reduce((sum, n) => sum + searchCost(n.toString('latin1')), 0);

/**
 * What a file must show, beside an entry name, to be a candidate: the directive mark, or one
 * needle of each group: of the names every condition of the needs spec needs (one of the classes
 * a method's receiver can have: `Agent` is in every `*Agent*` class) and of the module roots every
 * condition needs imported (./needs.ts, requiredTokens). A name the full scan finds, or
 * a root an import names, is in the bytes; so a file without them cannot be a candidate, and the
 * token scan of a file that names `metadata` but no such class is not needed. Exact: it only
 * rejects files the needs would reject.
 */
export class Gate {
  private constructor(
    private readonly directive: Buffer[],
    private readonly groups: Buffer[][],
    /** Searched before the first stage's needles: cheaper than the first stage without its directive needle. */
    readonly first: boolean,
  ) {}

  /** The gate of a needs spec beside the first stage's needles; undefined when no condition needs a token. */
  static build(spec: NeedsSpec, directiveMark: string, stage1: Buffer[]): Gate | undefined {
    const { names, roots } = requiredTokens(spec);
    const groups: Buffer[][] = [];
    for (const list of [names, roots]) {
      const needles = list && needlesFor(list);
      if (needles) groups.push(needles);
    }
    const directive = needlesFor([directiveMark]);
    if (!groups.length || !directive) return undefined;
    groups.sort((a, b) => costOf(a) - costOf(b));
    return new Gate(directive, groups, costOf(groups[0]!) < costOf(stage1) - costOf(directive));
  }

  /** False when the bytes cannot hold a candidate. */
  pass(b: Buffer): boolean {
    const any = (needles: Buffer[]) => needles.some((n) => b.indexOf(n) >= 0);
    return any(this.directive) || this.groups.every(any);
  }
}
