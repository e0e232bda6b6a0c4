/**
 * The prefilter: decides from a file's bytes alone, without parsing, whether the file can produce
 * a finding. Files that cannot are read but never parsed.
 *
 * The decision is exact in one direction: a file it rejects cannot produce a finding (the tests
 * check that findings are identical with and without it). A finding needs a call site whose name
 * is a rule's entry name (its function, class or method, an alias, or a curated summary method
 * leading to its method, such as `team.save_state()`), resolved by the semantic model to the
 * rule's library, which it can only do from what the file writes (src/prefilter/needs.ts):
 *  - for functions, constructors and class methods (`call` targets): an import of the first
 *    segment of the rule's module or of an alias (`makedirs` AND `import os` / `from os import`),
 *    the name written as a value a call can reach (`os.makedirs`, `x = os.makedirs`, `from os
 *    import makedirs` ... `makedirs(p)`; not `typing.Union[...]`: see shapeOf);
 *  - for instance methods (`obj.save_state()`, `await proxy.metadata`): the name written as an
 *    attribute, and a class whose instances can reach the method both imported (one of its roots)
 *    and named (its name or an alias's last segment), or a record's guard narrowing to one.
 * Bare built-in exception names need no import (`ValueError` is `builtins.ValueError`). A
 * `raiselint` token (a suppression comment: its directives, and unused ones, come from the tree)
 * also makes a candidate. Imports and attribute dots are read from the bytes around the names
 * found (src/prefilter/context.ts), never less than the tree has: every `import` token
 * counts, in strings and comments too. The names found decide in one look-up each: the cost is
 * one pass over the bytes plus the names found, whatever the number of rules. (A spec without
 * needs, as tests build: a CALL name, or a METHOD and a CLASS name.)
 *
 * Matching is a single pass over identifier-like tokens (maximal runs of `[A-Za-z0-9_]`, in code,
 * strings and comments alike), each looked up in a hash table: O(file size), independent of the
 * number of names (a multi-pattern matcher; measured faster here than Aho-Corasick or a regular
 * expression alternation, which V8 runs in time proportional to the number of names). Every ASCII Python identifier occurrence is such a run; bytes >= 0x80 end a run,
 * which can only add candidates. It works on undecoded bytes for every ASCII-compatible encoding.
 * Names that are not plain ASCII identifiers fall back to substring search on the decoded text.
 */
import type { RuleSet } from '../rules/ruleset.js';
import { ID_BYTE, NameTable, type Occurrences, type ScanResult } from './nametable.js';
import { accessAfter, dotBefore, importContext, type ImportContext } from './context.js';
import { Needs, needRoots, needsSpec, needTokens, SHAPE_ANY, SHAPE_DOT, SHAPE_VALUE, type NeedFacts, type NeedsSpec, type ProjectGifts } from './needs.js';
import { Gate, MAX_NEEDLES, needlesFor } from './needles.js';
import { ROLE_CALL, ROLE_CLASS, ROLE_CONTEXT, ROLE_DIRECTIVE, ROLE_METHOD, ROLE_OTHER } from '../rules/types.js';

export { searchCost } from './needles.js';

export type { ScanResult };

export { ROLE_CALL, ROLE_CLASS, ROLE_CONTEXT, ROLE_DIRECTIVE, ROLE_METHOD, ROLE_OTHER };
/** The roles of the first stage's names (see Prefilter). */
const STAGE1_ROLES = ROLE_CALL | ROLE_METHOD | ROLE_DIRECTIVE;
const DIRECTIVE_MARK = 'raiselint';
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Serializable: the names to look for, each with its role bits, and what each entry name needs beside it. */
export interface PrefilterSpec {
  names: [name: string, roles: number][];
  /** Without it, a call name alone, or a method name with any class name, makes a candidate. */
  needs?: NeedsSpec;
}

export function prefilterSpec(rules: RuleSet): PrefilterSpec {
  const roles = new Map<string, number>();
  const add = (name: string, role: number) => {
    if (name) roles.set(name, (roles.get(name) ?? 0) | role);
  };
  // Each rule's own names, derived when it was compiled (src/compile/python/meta.ts).
  for (const rule of rules.rules) for (const [name, role] of rule.prefilter) add(name, role);
  for (const n of rules.triggerNames) add(n, ROLE_OTHER);
  for (const m of rules.summaryMethods) add(m, ROLE_METHOD);
  for (const c of rules.classes.all()) {
    if (c.key.startsWith('<local>')) continue;
    add(c.name, ROLE_CLASS);
    for (const a of c.aliases) add(a.split('.').pop()!, ROLE_CLASS);
  }
  add(DIRECTIVE_MARK, ROLE_DIRECTIVE);
  const needs = needsSpec(rules);
  for (const [name] of needs.entries) if (((roles.get(name) ?? 0) & (ROLE_CALL | ROLE_METHOD)) === 0) add(name, ROLE_CALL);
  for (const t of needTokens(needs)) add(t, ROLE_CONTEXT);
  return { names: [...roles].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)), needs };
}

/** True when the matched roles allow a finding. */
export function rolesCanMatch(roles: number): boolean {
  return (roles & (ROLE_CALL | ROLE_DIRECTIVE)) !== 0 || ((roles & ROLE_METHOD) !== 0 && (roles & ROLE_CLASS) !== 0);
}

/**
 * A compiled prefilter. Build once per rule set (or load from a snapshot) and reuse.
 *
 * Stages: most files mention no call or method name at all, and the names of those roles are
 * longer than class names (`Swarm`), so the first scan, for them only, samples sparser bytes.
 * When those names are few, a cheaper test comes first: none of them can be in a file that does
 * not contain, as a substring, one of the few names every other one contains (`save_state` is in
 * `agent_save_state`), found by the runtime's native substring search; and the gate
 * (./needles.ts) asks, with the same search, for one of the class names and one of the
 * module roots that every rule's needs require (or the directive mark), before or after those
 * needles, whichever its cost model says is cheaper. Only a file that mentions a call or method
 * name is scanned again for every name (the roles decide; the names say which rules to load).
 * When the shortest name of any role is as short as the shortest call or method name (a dataset's
 * `id` or `eq`), the first scan would read the same bytes: one scan for every name does both.
 */
export class Prefilter {
  /** Substrings one of which every call and method name contains; undefined when there are too many. */
  private readonly needles?: Buffer[];

  private needsCache?: Needs;
  /** With needles: what a file must show beside an entry name (./needles.ts). */
  private readonly gate?: Gate;

  private constructor(
    private readonly stage1: NameTable,
    private readonly all: NameTable,
    /** JSON of the NeedsSpec (parsed when a file first passes the first stage, or with needles), or undefined. */
    private readonly needsJson?: string,
  ) {
    if (stage1.odd.length === 0 && stage1.count <= 64 * MAX_NEEDLES) this.needles = needlesFor(stage1.entries().map(([n]) => n));
    // Needles mean few names: their needs spec is small, read now for the gate.
    if (this.needles && needsJson) {
      const spec = JSON.parse(needsJson) as NeedsSpec;
      this.needsCache = new Needs(spec);
      this.gate = Gate.build(spec, DIRECTIVE_MARK, this.needles);
    }
  }

  static build(spec: PrefilterSpec): Prefilter {
    const stage1 = NameTable.build(spec.names.filter(([, r]) => (r & STAGE1_ROLES) !== 0));
    return new Prefilter(stage1, NameTable.build(spec.names), spec.needs ? JSON.stringify(spec.needs) : undefined);
  }

  /** The names and roles it looks for. */
  get spec(): PrefilterSpec {
    return { names: this.all.entries(), ...(this.needsJson ? { needs: JSON.parse(this.needsJson) as NeedsSpec } : {}) };
  }

  /** Layout: [4: length of A] A [pad] [4: length of B] B [pad] needs JSON (may be empty); A, B name tables. */
  toBytes(): Buffer {
    const pad = (n: number) => Buffer.alloc((4 - (n % 4)) % 4);
    const parts: Buffer[] = [];
    for (const t of [this.stage1, this.all]) {
      const b = t.toBytes();
      const len = Buffer.alloc(4);
      len.writeUInt32LE(b.length);
      parts.push(len, b, pad(b.length));
    }
    parts.push(Buffer.from(this.needsJson ?? '', 'utf8'));
    return Buffer.concat(parts);
  }

  /** From `toBytes` output; `bytes` must start 4-byte aligned in its ArrayBuffer. Views, no copy. */
  static fromBytes(bytes: Uint8Array): Prefilter {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const aLen = dv.getUint32(0, true);
    const bAt = 4 + aLen + ((4 - (aLen % 4)) % 4);
    const bLen = dv.getUint32(bAt, true);
    const nAt = bAt + 4 + bLen + ((4 - (bLen % 4)) % 4);
    const json = Buffer.from(bytes.buffer, bytes.byteOffset + nAt, bytes.byteLength - nAt).toString('utf8');
    return new Prefilter(NameTable.fromBytes(bytes.subarray(4, 4 + aLen)), NameTable.fromBytes(bytes.subarray(bAt + 4, bAt + 4 + bLen)), json || undefined);
  }

  /**
   * Whether the names found allow a finding: an entry name written as it must be, with what it
   * needs (./needs.ts; the file's imports are read only then), or a directive.
   */
  private decide(found: Map<string, number>, occurrences: Occurrences, buf: Uint8Array, length: number, project?: ProjectImports): boolean {
    if (!this.needsJson) return rolesCanMatch(toResult(found).roles);
    const needs = (this.needsCache ??= new Needs(JSON.parse(this.needsJson) as NeedsSpec));
    const facts = needFacts(found, occurrences, buf, length, project);
    for (const [name, roles] of found) {
      if (roles & ROLE_DIRECTIVE) return true;
      // A name no rule files (a curated summary method that leads to no rule's method) leads to no finding.
      if ((roles & (ROLE_CALL | ROLE_METHOD)) !== 0 && needs.met(name, facts)) return true;
    }
    return false;
  }

  /** True when some names need the decoded text (`scanBytes`'s `text`) rather than bytes. */
  get needsText(): boolean {
    return this.all.odd.length > 0;
  }

  /** Every name of the spec found in the bytes. `text` (decoded) is needed only when `needsText`. */
  scanBytes(buf: Uint8Array, length = buf.length, text?: string): ScanResult {
    const found = new Map<string, number>();
    this.all.scanBytes(buf, length, text, found);
    return toResult(found);
  }

  /** Whether what `facts` hold meets what `name` needs (written anywhere, in any shape); true for a name no rule files. */
  needsMetBy(name: string, facts: Pick<ProjectFacts, 'names' | 'roots' | 'gives'>, via?: readonly string[]): boolean {
    if (!this.needsJson) return true;
    const needs = (this.needsCache ??= new Needs(JSON.parse(this.needsJson) as NeedsSpec));
    const none = new Set<string>();
    // What is asked of its member `via[0]` (`compat.shutil.rmtree`: what `shutil` is there); not known: any library module it imports.
    const project = via ? facts : { ...facts, gives: (_: string, r: string) => facts.roots.has(r) };
    return (
      needs.met(name, {
        found: none,
        shape: () => SHAPE_ANY | SHAPE_DOT | SHAPE_VALUE,
        roots: () => none,
        imported: () => via ?? [],
        project: () => project,
      }) !== false
    );
  }

  /** Every name of the spec found in decoded text, with its roles. */
  scanRoles(text: string): Map<string, number> {
    const found = new Map<string, number>();
    this.all.scanText(text, found);
    return found;
  }

  /**
   * For a file that names no rule's call or method: the calls and methods the project modules it
   * imports name (a function there may make one on what the file passes it: semantic/effects.ts)
   * whose needs the file and those modules meet. Null when none.
   */
  passedNames(buf: Uint8Array, length: number, project: ProjectImports): string[] | null {
    const facts = project();
    if (!facts?.passers.size) return null;
    // Only the methods of the passers this file names.
    const text = Buffer.from(buf.buffer, buf.byteOffset, length).toString('latin1');
    const calls = new Set<string>();
    for (const [fn, methods] of facts.passers) if (new RegExp(`\\b${fn}\\b`).test(text)) for (const m of methods) calls.add(m);
    if (!calls.size) return null;
    if (!this.needsJson) return [...calls];
    const needs = (this.needsCache ??= new Needs(JSON.parse(this.needsJson) as NeedsSpec));
    const found = new Map<string, number>();
    this.all.scanBytes(buf, length, undefined, found);
    let ctx: ImportContext | undefined;
    const all: NeedFacts = {
      found,
      // Written in the module, not here: any shape.
      shape: () => SHAPE_ANY | SHAPE_DOT | SHAPE_VALUE,
      roots: () => (ctx ??= importContext(buf, length)).roots,
      imported: () => (ctx ??= importContext(buf, length)).imported,
      project,
    };
    const out = [...calls].filter((n) => needs.met(n, all) !== false);
    return out.length ? out : null;
  }

  /** Every name of the spec found in decoded text. */
  scanText(text: string): ScanResult {
    const found = new Map<string, number>();
    this.all.scanText(text, found);
    return toResult(found);
  }

  /** The module roots the rules' libraries live in (what a project module of that name is not: see semantic/crossfile.ts). */
  libraryRoots(): Set<string> {
    return this.needsJson ? needRoots(JSON.parse(this.needsJson) as NeedsSpec) : new Set();
  }

  /**
   * The names a file mentions when it can produce a finding; null when it cannot. With `project`,
   * a file that imports one of the project's modules may get any class through it (cross-file):
   * what a name needs beside it is taken as met.
   */
  candidateBytes(buf: Uint8Array, length = buf.length, text?: string, project?: ProjectImports): string[] | null {
    if (this.needles) {
      // Every call or method name contains a needle: look at the tokens around the needles only.
      const b = Buffer.from(buf.buffer, buf.byteOffset, length);
      // A file that imports a project module may get the classes the gate looks for through it (cross-file).
      const gated = () => !!this.gate && !this.gate.pass(b) && !project?.();
      if (this.gate?.first && gated()) return null;
      let found = false;
      for (const needle of this.needles) {
        for (let at = b.indexOf(needle); at >= 0 && !found; ) {
          let s = at;
          while (s > 0 && ID_BYTE[b[s - 1]!] !== 0) s--;
          let e = at + needle.length;
          while (e < length && ID_BYTE[b[e]!] !== 0) e++;
          found = this.stage1.hasToken(b, s, e);
          at = e < length ? b.indexOf(needle, e) : -1;
        }
        if (found) break;
      }
      if (!found || (this.gate && !this.gate.first && gated())) return null;
    } else if (this.stage1.gramsUsable) {
      if (!this.stage1.anyToken(buf, length)) return null;
    } else if (this.all.minLen === this.stage1.minLen) {
      // Names of other roles no shorter: the first scan would sample the same bytes (and a file
      // that passes it was scanned twice). One scan for every name decides both stages: a name
      // of the first stage's roles found is what the first scan finds.
      const found = new Map<string, number>();
      const occurrences: Occurrences = { roles: ROLE_CALL | ROLE_METHOD, at: new Map() };
      this.all.scanBytes(buf, length, text, found, this.needsJson ? occurrences : undefined);
      let roles = 0;
      for (const r of found.values()) roles |= r;
      if ((roles & STAGE1_ROLES) === 0) return null;
      return this.decide(found, occurrences, buf, length, project) ? [...found.keys()] : null;
    } else {
      const first = new Map<string, number>();
      this.stage1.scanBytes(buf, length, text, first);
      if (!first.size) return null;
    }
    const found = new Map<string, number>();
    const occurrences: Occurrences = { roles: ROLE_CALL | ROLE_METHOD, at: new Map() };
    this.all.scanBytes(buf, length, text, found, this.needsJson ? occurrences : undefined);
    return this.decide(found, occurrences, buf, length, project) ? [...found.keys()] : null;
  }

  /** `candidateBytes` on decoded text (as its UTF-8 bytes: the same tokens, non-ASCII characters ending them). */
  candidateText(text: string, project?: ProjectImports): string[] | null {
    const bytes = Buffer.from(text, 'utf8');
    return this.candidateBytes(bytes, bytes.length, text, project);
  }
}

/**
 * What the needs (./needs.ts) read of a file whose bytes were scanned into `found` (with
 * the occurrences of the names asked for): each name's shape and the module roots it imports, the
 * imports read on first use. The prefilter and the model's demand (src/semantic/demand.ts) read a
 * file's needs through this one reading.
 */
/** What the project modules a file imports hold, three imports deep (semantic/projectfacts.ts): the names of the spec, of them the calls and methods, and the modules they import. */
export interface ProjectFacts extends ProjectGifts {
  /** Their functions that call a rule's method on a parameter (or pass one on), with those methods. */
  passers: Map<string, Set<string>>;
  /** The module files they were read from (a file's result depends on them). */
  files: Set<string>;
  /** The names the file's imports of them bind (`from app.runtime import make`: `make`); absent: any name may be one (a star import). */
  locals?: Set<string>;
  /** They name a class the rules know. */
  classes: boolean;
  /** They name a function the rules know. */
  calls: boolean;
}

/** The project facts of a file, computed when first asked (undefined: it imports no project module). */
export type ProjectImports = () => ProjectFacts | undefined;

export function needFacts(found: Map<string, number>, occurrences: Occurrences, buf: Uint8Array, length: number, project?: ProjectImports): NeedFacts {
  let ctx: ImportContext | undefined;
  const imports = () => (ctx ??= importContext(buf, length));
  return {
    project,
    found,
    // A name that is no ASCII identifier is found in the decoded text only: any shape.
    shape: (name) => (IDENT.test(name) ? shapeOf(name, occurrences.at.get(name) ?? [], buf, length, imports()) : SHAPE_ANY | SHAPE_DOT | SHAPE_VALUE),
    roots: () => imports().roots,
    imported: () => imports().imported,
  };
}

/**
 * How an entry name is written (SHAPE_* bits of ./needs.ts), from where it occurs:
 * after a `.` (an attribute); as a value (the callee of a call can only be one): an attribute that
 * is not itself subscripted or accessed (`os.makedirs`, not `typing.Union[...]` nor
 * `inspect.Parameter.KEYWORD_ONLY`), a name imported under another (`from m import f as g`), or a
 * name the file imports (anywhere) used bare, outside an import list, as neither.
 */
export function shapeOf(name: string, at: number[], buf: Uint8Array, length: number, ctx: ImportContext): number {
  let shape = SHAPE_ANY;
  let bare = false;
  for (const s of at) {
    const listed = ctx.listed.get(s);
    if (listed !== undefined) {
      if (listed) shape |= SHAPE_VALUE;
      continue;
    }
    const access = accessAfter(buf, s + name.length, length);
    if (dotBefore(buf, s)) shape |= access ? SHAPE_DOT : SHAPE_DOT | SHAPE_VALUE;
    else if (!access) bare = true;
  }
  if (bare && ctx.imported.has(name)) shape |= SHAPE_VALUE;
  return shape;
}

function toResult(found: Map<string, number>): ScanResult {
  let roles = 0;
  for (const r of found.values()) roles |= r;
  return { roles, names: [...found.keys()] };
}

const compiled = new WeakMap<RuleSet, Prefilter>();

/**
 * Sets the prefilter of a rule set whose `rules` are loaded lazily (a rules snapshot): its
 * prefilter must come from the complete rule set, not from the rules loaded so far.
 */
export function setPrefilter(rules: RuleSet, p: Prefilter): void {
  compiled.set(rules, p);
}

/** The compiled prefilter of a rule set (built once, then cached). */
export function prefilterFor(rules: RuleSet): Prefilter {
  let p = compiled.get(rules);
  if (!p) {
    p = Prefilter.build(prefilterSpec(rules));
    compiled.set(rules, p);
  }
  return p;
}
