/**
 * What the project modules a file imports can bring into it, for the prefilter and the demand
 * analysis (cross-file): the rule names their texts hold (a class a factory there makes, a method a
 * function there calls on what it is passed) and the modules they import, over the imports two
 * modules deep. A file whose own text does not meet what a rule's name needs beside it (a class, an
 * imported module: prefilter/needs.ts) may still meet it through these. Read from the modules'
 * texts only (no parse), once per module for a set of modules.
 */
import type { Prefilter, ProjectFacts, ProjectImports } from '../prefilter/index.js';
import { importContext } from '../prefilter/context.js';
import { blankInert, exportedNames, typeCheckingSpans } from '../python/codetext.js';
import { ROLE_CALL, ROLE_CLASS } from '../rules/types.js';
import type { CrossFile, ProjectModules } from './crossfile.js';
import { handedOn, importStatements, passersOf, plainDefs } from './moduletext.js';

interface ModuleFacts {
  names: Set<string>;
  /** Its functions that call a rule's method on a parameter, or pass one on to such a function, with those methods. */
  passers: Map<string, Set<string>>;
  roots: Set<string>;
  /** Names it binds from another module (each with that module's root) or by assignment (`*`), and `*` for its star imports' roots. */
  handed: Map<string, Set<string>>;
  /** Names only a plain top-level `def` binds (no decorator, no other binding): the module's own functions. */
  defs: Set<string>;
  imports: string[];
  /** The module files these facts were read from (itself, and what its passers go through). */
  files: string[];
  /** It names a class the rules know. */
  classes: boolean;
  /** It names a function the rules know. */
  calls: boolean;
}

const DEPTH = 2;

const gave = (f: ModuleFacts, name: string, root: string) => {
  const from = f.handed.get(name);
  return !!from && (from.has(root) || (name !== '*' && from.has('*')));
};

/**
 * The project modules a file imports (absolute paths), read from its text: `from m import ...`,
 * relative or not, and `import a.b`; only modules of the project (never the rules' libraries).
 */
export function importedModules(text: string, file: string, modules: ProjectModules): string[] {
  return projectImportsIn(text, file, modules).files;
}

/**
 * The project modules a text imports (./importedModules), and the names those imports bind in it
 * (`from app.runtime import make as mk`: `mk`; `import app.runtime`: `app`); `star`: some imports
 * `*` from one, so any name may be the project's.
 */
function projectImportsIn(text: string, file: string, modules: ProjectModules): { files: string[]; names: Set<string>; star: boolean } {
  const out = { files: [] as string[], names: new Set<string>(), star: false };
  if (!text.includes('import')) return out;
  const files = new Set<string>();
  const add = (dotted: string | undefined, submodule = false) => {
    if (!dotted || !modules.isProjectTop(file, dotted.split('.')[0]!)) return false;
    const r = modules.resolver.resolve(file, dotted);
    if (r && (!submodule || !r.rest.length)) files.add(r.file);
    return true;
  };
  // Imports only a type checker runs bring nothing in when the program runs.
  const spans = typeCheckingSpans(text);
  for (const st of importStatements(text)) {
    if (spans.some(([s, e]) => st.at >= s && st.at < e)) continue;
    if (st.plain) {
      for (const b of st.bindings) if (add(b.name)) out.names.add(b.bound);
      continue;
    }
    const from = st.dots ? modules.resolver.absolute(file, st.dots, st.module) : st.module;
    const project = add(from);
    for (const { name, bound } of st.bindings) {
      if (!/^\w+$|^\*$/.test(name)) continue;
      // `from pkg import mod`: a submodule is imported too.
      if (from && name !== '*') add(`${from}.${name}`, true);
      if (!project) continue;
      if (name === '*') out.star = true;
      else out.names.add(bound);
    }
  }
  out.files = [...files];
  return out;
}

export class ImportFacts {
  private readonly memo = new Map<string, ModuleFacts | null>();

  constructor(
    private readonly modules: ProjectModules,
    private readonly prefilter: Prefilter,
  ) {}

  private module(file: string, depth = 0): ModuleFacts | null {
    let f = this.memo.get(file);
    if (f !== undefined) return f;
    const read = this.modules.text(file);
    this.memo.set(file, null);
    if (read === undefined) return null;
    // Names in comments and plain strings are no uses.
    const text = blankInert(read);
    // The rule names another module can get from it: what reaches its names, returns and attributes
    // (most modules name no rule: nothing to read of what they export).
    const roles = this.prefilter.scanRoles(text);
    const exported = roles.size ? exportedNames(text, new Set(roles.keys())) : undefined;
    const reach = new Map(exported ? [...roles].filter(([n]) => exported.has(n)) : []);
    const buf = Buffer.from(text, 'utf8');
    const imports = importedModules(text, file, this.modules);
    // What it passes on to the modules it imports (a cycle or a deeper import: not followed).
    const known = new Map<string, Set<string>>();
    const files = new Set([file]);
    if (depth < DEPTH)
      for (const m of imports) {
        const g = this.module(m, depth + 1);
        for (const [n, ms] of g?.passers ?? []) known.set(n, ms);
        for (const x of g?.files ?? [m]) files.add(x);
      }
    const classes = [...reach.values()].some((r) => (r & ROLE_CLASS) !== 0);
    const handed = handedOn(text);
    const defs = plainDefs(text, handed);
    // An assigned name matters only as a rule's function (`rmtree = shutil.rmtree`): the rest is not kept (a module's constants, for every module read).
    for (const [n, from] of handed) if (from.size === 1 && from.has('*') && !roles.has(n)) handed.delete(n);
    const calls = [...reach.values()].some((r) => (r & ROLE_CALL) !== 0);
    f = {
      names: new Set(reach.keys()),
      // No rule method named here and no passer imported: none here.
      passers: roles.size || known.size ? passersOf(text, roles, known) : new Map(),
      roots: new Set(importContext(buf, buf.length).roots),
      handed,
      defs,
      imports,
      files: [...files],
      classes,
      calls,
    };
    this.memo.set(file, f);
    return f;
  }

  /** What a module and the modules it imports hold (two imports deep), once per module. */
  ofModule(file: string): ProjectFacts | undefined {
    if (this.ofMemo.has(file)) return this.ofMemo.get(file);
    const f = this.module(file);
    const out = f ? this.closure(f.imports, new Set([file]), 0, [f]) : undefined;
    if (out) for (const x of f!.files) out.files.add(x);
    this.ofMemo.set(file, out);
    return out;
  }

  private readonly ofMemo = new Map<string, ProjectFacts | undefined>();

  /** Whether `name` is a module's own function: bound only by a plain top-level `def`. */
  ownFunction(file: string, name: string): boolean {
    return this.module(file)?.defs.has(name) ?? false;
  }

  /** The passers of one module (with what it imports), read from the texts. */
  passers(file: string, read: Set<string>): ReadonlyMap<string, Set<string>> | undefined {
    const f = this.module(file);
    for (const x of f?.files ?? [file]) read.add(x);
    return f?.passers;
  }

  /**
   * The facts of the project modules a file's text imports, three imports deep (undefined: it
   * imports none). Asked of one file by its prefilter, its check and its model in turn: the last
   * answer is kept (the same file and text give the same facts).
   */
  of(file: string, text: string): ProjectFacts | undefined {
    const last = this.lastOf;
    if (last?.file === file && last.text === text) return last.out;
    const imports = projectImportsIn(blankInert(text), file, this.modules);
    const out = imports.files.length ? this.closure(imports.files, new Set([file]), 1) : undefined;
    if (out && !imports.star) out.locals = imports.names;
    this.lastOf = { file, text, out };
    return out;
  }

  private lastOf?: { file: string; text: string; out: ProjectFacts | undefined };

  /**
   * The facts of modules and what they import. Class names count at every depth (a class made two
   * modules away and returned), imported library modules only down to `rootsDepth` (a library
   * call's result handed on through further project modules is not followed: the value is unknown).
   */
  private closure(first: string[], seen: Set<string>, rootsDepth: number, own: ModuleFacts[] = []): ProjectFacts {
    let frontier = first;
    // Unions over the modules' own sets (never copied: a file's closure may hold hundreds of names per module).
    const named = [...own];
    const rooted = [...own];
    // A file's prefilter asks of the same names again and again (each of its entries' alternatives).
    const asked = new Map<string, boolean>();
    const out: ProjectFacts = {
      names: { has: (n) => memo(asked, n, () => named.some((f) => f.names.has(n))) },
      roots: { has: (r) => rooted.some((f) => f.roots.has(r)) },
      gives: (n, r) => rooted.some((f) => f.roots.has(r) && (gave(f, n, r) || gave(f, '*', r))),
      passers: new Map(),
      files: new Set(),
      classes: own.some((f) => f.classes),
      calls: own.some((f) => f.calls),
    };
    for (let d = 0; d < DEPTH && frontier.length; d++) {
      const next: string[] = [];
      for (const m of frontier) {
        if (seen.has(m)) continue;
        seen.add(m);
        const f = this.module(m);
        out.files.add(m);
        if (!f) continue;
        for (const x of f.files) out.files.add(x);
        out.classes ||= f.classes;
        out.calls ||= f.calls;
        named.push(f);
        for (const [n, ms] of f.passers) out.passers.set(n, new Set([...(out.passers.get(n) ?? []), ...ms]));
        if (d < rootsDepth) rooted.push(f);
        next.push(...f.imports);
      }
      frontier = next;
    }
    return out;
  }
}

function memo(m: Map<string, boolean>, key: string, get: () => boolean): boolean {
  let v = m.get(key);
  if (v === undefined) m.set(key, (v = get()));
  return v;
}

const factsOf = new WeakMap<ProjectModules, WeakMap<Prefilter, ImportFacts>>();

function importFacts(modules: ProjectModules, prefilter: Prefilter): ImportFacts {
  let byPrefilter = factsOf.get(modules);
  if (!byPrefilter) factsOf.set(modules, (byPrefilter = new WeakMap()));
  let facts = byPrefilter.get(prefilter);
  if (!facts) byPrefilter.set(prefilter, (facts = new ImportFacts(modules, prefilter)));
  return facts;
}

/**
 * Whether what a project module gives may be what a rule's method or call `name` needs (the class of
 * its receiver, a module: prefilter/needs.ts), from the texts of the module and of what it imports:
 * its summary is read only then.
 */
export function mayGive(cross: CrossFile, file: string, name: string | undefined, prefilter: Prefilter, q?: string): boolean {
  const all = importFacts(cross.modules, prefilter);
  // A callee the module defines with a plain `def` is its own function, no alias of a rule's function or class.
  const m = q !== undefined ? cross.whereIs(q) : undefined;
  const member = m?.file === file ? m.rest[0] : undefined;
  if (name === CALLABLE && member !== undefined && m!.rest.length === 1 && all.ownFunction(file, member)) {
    cross.read.add(file);
    return false;
  }
  const facts = all.ofModule(file);
  // The answer depends on those texts: the file's findings do too (./crossfile.ts deps).
  for (const x of facts?.files ?? [file]) cross.read.add(x);
  if (!facts) return false;
  if (name === undefined) return facts.classes;
  // A callee whose written name no rule has: what it names matters only as a rule's function or class.
  if (name === CALLABLE) return facts.classes || facts.calls;
  return prefilter.needsMetBy(name, facts, member !== undefined ? [member] : undefined);
}

/** `mayGive`'s name for a callee whose written name is no trigger: it may be an alias of a rule's function or class. */
export const CALLABLE = '()';

/**
 * Whether a project function may do something with its parameters (./effects.ts), from its
 * module's text: its summary is read only then. A reference that is no plain module function: true.
 */
export function mayPassOn(cross: CrossFile, q: string, prefilter: Prefilter): boolean {
  const at = cross.whereIs(q);
  if (at?.rest.length !== 1) return !q.includes('(');
  return importFacts(cross.modules, prefilter).passers(at.file, cross.read)?.has(at.rest[0]!) ?? false;
}

/** What the prefilter and the demand analysis ask of a file's project imports (computed on first use, once). */
export function projectImports(
  modules: ProjectModules,
  file: string,
  text: string | (() => string | undefined),
  prefilter: Prefilter,
): ProjectImports & { read(): string[] } {
  const f = importFacts(modules, prefilter);
  let done = false;
  let out: ProjectFacts | undefined;
  const facts = () => {
    if (!done) {
      done = true;
      const t = typeof text === 'string' ? text : text();
      out = t === undefined ? undefined : f.of(file, t);
    }
    return out;
  };
  // The module files read for it, if it was asked (a file's result depends on them, even one the prefilter passes over).
  return Object.assign(facts, { read: () => [...(out?.files ?? [])] });
}
