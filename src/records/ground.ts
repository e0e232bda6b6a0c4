/**
 * Source-grounded records: a record whose library is installed in the checked project's Python
 * environment (src/workspace/pyenv.ts) is compiled from the installed file, not only from its
 * ~37-line `sourceCode` window, which often starts below the raising `def`. The compiler then sees
 * the whole def with its signature and defaults, every condition on the path to the raise, the
 * class around it and the module's imports, constants and small (exception) classes.
 *
 * The installed file is found by the record's `filePath` (its longest suffix under one of the
 * environment's roots: `Lib/json/decoder.py` is `<stdlib>/json/decoder.py`), and the raise by the
 * text of the record's raising line: at `lineNumber` when the versions agree, else the nearest
 * equal line. When the file is there but no line raises as the record says (the library changed:
 * a stub was implemented), the record is not compiled, and `records check` says why.
 *
 * The grounded window keeps every line in place (line numbers are the file's) and blanks what the
 * compiler does not need: the other functions and large classes of the module.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { LoadedRecord, PlainValue } from './types.js';
import { conditionalDef, liveDefs, type ConditionalDef } from './live.js';
import { askedNames, moduleFacts } from './values.js';

/** What grounding needs of the environment (src/workspace/pyenv.ts finds and asks it). */
export interface InstalledRoots {
  version: string;
  /** The interpreter, asked which of a module's conditional defs runs (./live.ts). */
  executable?: string;
  /** Where modules are found, in import order: the standard library first, then site-packages. */
  roots: string[];
}

/** Undecorated top-level functions up to this many lines are kept whole (helper predicates). */
const SMALL_DEF_LINES = 8;

/**
 * The module's plain classes, read off its top-level `class` lines: bases `object` or plain classes of
 * the module, no keyword (no metaclass), the name bound by no other top-level line. No built-in value,
 * class object or function is an instance of one (src/compile/condition/helpers.ts).
 */
/**
 * Module-level names bound to a method of a module-level instance (`_inst = Random()` then
 * `randrange = _inst.randrange`): calling the name calls the method. By `Class.method`.
 */
export function boundMethods(lines: readonly string[]): Record<string, string[]> {
  const instances = new Map<string, string>();
  const out: Record<string, string[]> = {};
  for (const line of lines) {
    const made = /^([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\(\)\s*(?:#.*)?$/.exec(line);
    if (made) {
      instances.set(made[1]!, made[2]!);
      continue;
    }
    const bound = /^([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*(?:#.*)?$/.exec(line);
    const cls = bound && instances.get(bound[2]!);
    if (cls && !bound![1]!.startsWith('_')) (out[`${cls}.${bound![3]}`] ??= []).push(bound![1]!);
  }
  return out;
}

/**
 * The module's classes with bases, and the methods each body defines (`class ConfigParser(RawConfigParser):`):
 * a library subclass of a raising class inherits its raise unless it defines the method again. Classes
 * under a module-level `if`/`try` count (`HTTPSConnection` is defined in `try: import ssl ... else:`);
 * not those inside a def or another class.
 */
export function moduleClasses(lines: readonly string[]): Record<string, { bases: string[]; defs: string[] }> {
  const out: Record<string, { bases: string[]; defs: string[] }> = {};
  // Open blocks by indentation: a class or def (a scope), or any other compound statement.
  const open: { indent: number; scope: boolean; cls?: string }[] = [];
  for (const line of lines) {
    const m = /^(\s*)(\S)/.exec(line);
    if (!m || m[2] === '#') continue;
    const indent = m[1]!.length;
    while (open.length && open.at(-1)!.indent >= indent) open.pop();
    const top = open.at(-1);
    const def = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/.exec(line);
    if (def && top?.cls && open.filter((o) => o.scope).at(-1) === top) out[top.cls]!.defs.push(def[1]!);
    const cls = /^\s*class\s+([A-Za-z_]\w*)\s*\(([\w\s,.]*)\)\s*:/.exec(line);
    if (cls && !open.some((o) => o.scope)) {
      const bases = cls[2]!
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean);
      if (bases.length) out[cls[1]!] = { bases, defs: [] };
      open.push({ indent, scope: true, ...(bases.length ? { cls: cls[1]! } : {}) });
      continue;
    }
    if (/:\s*(#.*)?$/.test(line)) open.push({ indent, scope: !!def || /^\s*class\b/.test(line) });
  }
  return out;
}

export function plainClasses(lines: readonly string[]): string[] {
  const bases = new Map<string, string[] | undefined>();
  const bound = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const m = /^(?:class|def)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]/.exec(lines[i]!);
    if (!m) continue;
    const name = (m[1] ?? m[2])!;
    bound.set(name, (bound.get(name) ?? 0) + 1);
    if (!lines[i]!.startsWith('class')) continue;
    // A decorator may return anything; bases must be plain names (no metaclass keyword, no dotted base).
    const c = i > 0 && lines[i - 1]!.startsWith('@') ? null : /^class\s+\w+\s*(?:\(([\w\s,]*)\))?\s*:/.exec(lines[i]!);
    bases.set(
      name,
      c
        ? (c[1] ?? '')
            .split(',')
            .map((b) => b.trim())
            .filter(Boolean)
        : undefined,
    );
  }
  const plain = new Map<string, boolean>();
  const isPlain = (n: string): boolean => {
    if (n === 'object') return true;
    if (plain.has(n)) return plain.get(n)!;
    plain.set(n, false);
    const bs = bound.get(n) === 1 ? bases.get(n) : undefined;
    const out = !!bs && bs.every(isPlain);
    plain.set(n, out);
    return out;
  };
  return [...bases.keys()].filter(isPlain).sort();
}

/** No triple-quoted string runs past these lines (a docstring line at column 0 starts a chunk of its own). */
function closesStrings(chunk: readonly string[]): boolean {
  const text = chunk.join('\n');
  return (text.split('"""').length - 1) % 2 === 0 && (text.split("'''").length - 1) % 2 === 0;
}

/** Top-level classes up to this many lines are kept whole (exception classes, small helpers). */
const SMALL_CLASS_LINES = 15;
/** A call of a class-like name with `self` among its positional arguments. */
const HANDED = /\b(_*[A-Z]\w*)\(\s*(?:[^()]*,\s*)?self\s*[,)]/g;
/** Top-level assignments up to this many lines are kept (module constants). */
const SMALL_ASSIGN_LINES = 25;

/** What one grounding read: installed files by filePath, their texts by path (kept for that call only: a long-lived language server sees upgrades, and holds no texts). */
interface Reads {
  files: Map<string, string | null>;
  texts: Map<string, { text: string; lines: string[]; plain?: string[]; bound?: Record<string, string[]>; classes?: ReturnType<typeof moduleClasses> } | null>;
}

/** The installed file a record's filePath names, under one of the roots; null when none. */
function installedFile(filePath: string, roots: readonly string[], reads: Reads): string | null {
  const known = reads.files.get(filePath);
  if (known !== undefined) return known;
  const parts = filePath.replace(/\\/g, '/').split('/').filter(Boolean);
  let found: string | null = null;
  // Longest suffix first: `json/decoder.py` before `decoder.py`.
  outer: for (let i = 0; i < parts.length; i++) {
    const rel = parts.slice(i).join('/');
    for (const root of roots) {
      const p = join(root, rel);
      try {
        if (statSync(p).isFile()) {
          found = p;
          break outer;
        }
      } catch {
        // not under this root
      }
    }
  }
  reads.files.set(filePath, found);
  return found;
}

function fileText(
  path: string,
  reads: Reads,
): { text: string; lines: string[]; plain?: string[]; bound?: Record<string, string[]>; classes?: ReturnType<typeof moduleClasses> } | null {
  let t = reads.texts.get(path);
  if (t === undefined) {
    try {
      const text = new TextDecoder('utf-8').decode(readFileSync(path)).replace(/\r\n?/g, '\n');
      t = { text, lines: text.split('\n') };
    } catch {
      t = null;
    }
    reads.texts.set(path, t);
  }
  return t;
}

/** The 0-based line of the installed file that raises as the record's line does, or -1. */
/** The row of the line that reads `want`: `near` when it does, else the nearest that does (-1: none). */
export function raiseLine(lines: readonly string[], want: string, near: number): number {
  if (lines[near]?.trim() === want) return near;
  let best = -1;
  for (let i = 0; i < lines.length; i++) if (lines[i]!.trim() === want && (best < 0 || Math.abs(i - near) < Math.abs(best - near))) best = i;
  return best;
}

const indentOf = (l: string) => l.length - l.trimStart().length;
const isCode = (l: string) => l.trim() !== '' && !l.trimStart().startsWith('#');

/**
 * The file with only what the compiler needs for the raise at `row`: the top-level statement
 * around it (its function, or its class whole), imports, small assignments and small classes.
 * Every other line is blank, so rows stay the file's.
 */
function keepAround(lines: readonly string[], row: number): string {
  const out = lines.map(() => '');
  // Top-level chunks: a line at column 0 and what follows it indented (decorators join their def).
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) if (isCode(lines[i]!) && indentOf(lines[i]!) === 0 && !/^[)\]}]/.test(lines[i]!.trim())) starts.push(i);
  const chunks: [number, number][] = [];
  let lastStart = -1;
  for (let k = 0; k < starts.length; k++) {
    const a = starts[k]!;
    const b = k + 1 < starts.length ? starts[k + 1]! : lines.length;
    // A decorator's line joins the definition (or the next decorator) below it.
    if (chunks.length && /^@/.test(lines[lastStart]!)) chunks[chunks.length - 1]![1] = b;
    else chunks.push([a, b]);
    lastStart = a;
  }
  // The classes the raising chunk hands `self` to (`_ZipWriteFile(self, ...)`: src/compile/condition/handed.ts reads what they do with it).
  const around = chunks.find(([a, b]) => a <= row && row < b);
  const handedTo = new Set<string>();
  for (const l of around ? lines.slice(around[0], around[1]) : []) for (const m of l.matchAll(HANDED)) handedTo.add(m[1]!);
  for (const [a, b] of chunks) {
    let head = a;
    while (head < b - 1 && /^@/.test(lines[head]!)) head++;
    const first = lines[head]!.trimStart();
    const size = b - a;
    const keep =
      (a <= row && row < b) ||
      /^(import|from)\s/.test(first) ||
      (/^class\s/.test(first) && (size <= SMALL_CLASS_LINES || handedTo.has(/^class\s+(\w+)/.exec(first)?.[1] ?? ''))) ||
      // A small function may be a helper predicate a test calls (`_is_instance_mock(spec)`: src/compile/condition/helpers.ts).
      (/^def\s/.test(first) && head === a && size <= SMALL_DEF_LINES && closesStrings(lines.slice(a, b))) ||
      (/^[A-Za-z_][\w.]*\s*(:[^=]*)?=[^=]/.test(first) && size <= SMALL_ASSIGN_LINES) ||
      (/^(if|try)\b/.test(first) && size <= SMALL_ASSIGN_LINES && lines.slice(a, b).some((l) => /^\s*(import|from)\s/.test(l)));
    if (keep) for (let i = a; i < b; i++) out[i] = lines[i]!;
  }
  return out.join('\n');
}

/**
 * Grounds the records whose library is installed in `env` (in place: `lr.grounded`). Returns a
 * fingerprint of what was read (each installed file's path and content hash), for caches. `out`
 * gets the public constants of the modules read (./values.ts publicConstants), by `module:NAME`.
 */
export function groundRecords(records: LoadedRecord[], env: InstalledRoots | undefined, out?: { constants?: Record<string, PlainValue> }): string[] {
  const read = new Map<string, string>();
  if (!env || !env.roots.length) return [];
  const reads: Reads = { files: new Map(), texts: new Map() };
  const conditional: [LoadedRecord, ConditionalDef][] = [];
  const asked = new Map<string, { names: string[]; records: LoadedRecord[] }>();
  for (const lr of records) {
    const r = lr.record;
    const tags = (r.tags ?? []).map((t) => t.toLowerCase());
    if (!/\.pyi?$/.test(r.filePath) && !tags.includes('python')) continue;
    if (!/\.py$/.test(r.filePath)) continue;
    const want = r.sourceCode.split('\n')[r.lineNumber - r.sourceCodeStart]?.trim();
    if (!want) continue;
    const file = installedFile(r.filePath, env.roots, reads);
    if (!file) continue;
    const t = fileText(file, reads);
    if (!t) continue;
    if (!read.has(file)) read.set(file, createHash('sha256').update(t.text).digest('hex'));
    const row = raiseLine(t.lines, want, r.lineNumber - 1);
    if (row < 0) {
      lr.grounded = {
        file,
        skip: `the installed ${file} (Python ${env.version}) has no line \`${want.length > 60 ? `${want.slice(0, 57)}...` : want}\`: this version does not raise there`,
      };
      continue;
    }
    // The window starts where the record's lineNumber stays the raise's row of the file.
    t.plain ??= plainClasses(t.lines);
    t.bound ??= boundMethods(t.lines);
    t.classes ??= moduleClasses(t.lines);
    lr.grounded = { file, sourceCode: keepAround(t.lines, row), sourceCodeStart: r.lineNumber - row, line: row + 1, plainClasses: t.plain };
    if (Object.keys(t.bound).length) lr.grounded.boundMethods = t.bound;
    if (Object.keys(t.classes).length) lr.grounded.classes = t.classes;
    if (env.executable) (asked.get(file) ?? asked.set(file, { names: askedNames(t.lines), records: [] }).get(file)!).records.push(lr);
    const cond = env.executable ? conditionalDef(t.lines, row, file, env.roots[0]) : undefined;
    if (cond) conditional.push([lr, cond]);
  }
  // The platform names of each module, as this Python has them.
  const files = [...asked];
  const { values, keys, constants } = moduleFacts(
    env.executable ?? '',
    env.roots[0],
    files.map(([file, a]) => ({ file, names: a.names })),
  );
  if (out) out.constants = constants;
  files.forEach(([, a], i) => {
    if (Object.keys(values[i]!).length) for (const lr of a.records) lr.grounded!.values = values[i];
    if (Object.keys(keys[i]!).length) for (const lr of a.records) lr.grounded!.keys = keys[i];
  });
  // A def under a module-level block that the module does not bind raises for no caller.
  const key = (c: ConditionalDef) => `${c.file}\0${c.to}`;
  const unique = new Map(conditional.map(([, c]) => [key(c), c]));
  const live = liveDefs(env.executable ?? '', [...unique.values()]);
  const byDef = new Map([...unique.keys()].map((k, i) => [k, live[i]]));
  for (const [lr, c] of conditional) {
    if (byDef.get(key(c)) !== false) continue;
    lr.grounded = {
      file: c.file,
      skip: `in Python ${env.version}, ${c.module}.${c.qualname} is not the def at line ${c.to} of ${c.file} (written under \`${c.under}\`): the module binds another`,
    };
  }
  return [...read].sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, h]) => `${f}\0${h}`);
}
