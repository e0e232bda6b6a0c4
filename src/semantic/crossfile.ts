/**
 * Cross-file: values from the project's own modules. A file's interpreter keeps what it imports
 * from a project module symbolic (`app.runtime.make_runtime()`, then `.rt`); only where a rule may
 * match (a recorded call site, a class base, a narrowed value) is it evaluated, in the summary of
 * the module that defines it: that module parsed once per run and run at module level by the same
 * interpreter (./model.ts), its functions' returns and classes' members inferred there when asked,
 * cycles cut. Answers are copied into the asking file as plain types: a project class joins its
 * registry (bases, own methods), a project function becomes a reference it can call. Names the
 * rules know (a library's modules, also a copy of one in the checked tree) are never looked up
 * here. A file's findings depend on the modules read for it (`deps`): the content cache keys its
 * result on them, and the language server re-checks it when one changes.
 */
import type { ClassRegistry } from '../rules/classes.js';
import { ModuleResolver } from './modules.js';
import { SummaryCache, type Cached, type ModuleSummary, type ReadModule } from './summarycache.js';
import type { ParamEffect } from './effects.js';
export type { ModuleSummary, ReadModule } from './summarycache.js';
import { copyInfo, instancesOf, joinTokens } from './portable.js';
import { isStackOverflow } from '../parse/depth.js';
import { UNKNOWN, classAtom, funcAtom, instAtom, isUnknown, refAtom, seqAtom, tupleAtom, union, type Atom, type Type } from './types.js';

/** Builds the summary of a project module's text, read through `view` for its own imports (undefined: not Python this run can read). */
export type Summarize = (text: string, file: string, view: CrossFile) => ModuleSummary | undefined;

interface Loaded extends Cached {
  summary: ModuleSummary;
  view: CrossFile;
  /** Functions handed out as references (`<m3@120>`), by start offset (made again from the offset after a drop). */
  fns: Map<number, Atom>;
}

/** How many module boundaries one evaluation may cross. */
const MAX_DEPTH = 8;
/** A reference to a function of a summary: `<mINDEX@START>`. */
export const FN_REF = /^<m(\d+)@(\d+)>/;

/** The project's modules for one run (or one language-server session, until a module changes). */
export class ProjectModules {
  readonly resolver = new ModuleResolver();
  private readonly cache: SummaryCache<Loaded>;
  private readonly busy = new Set<string>();
  /** Summaries computed (modules parsed and interpreted) by this host. */
  computed = 0;

  /**
   * @param libraryTops the top-level modules of the rules' libraries (their classes' modules, the
   * roots the prefilter requires): a project module of such a name is not followed.
   * @param maxAlive summaries alive at most (./summarycache.ts).
   */
  constructor(
    private readonly summarize: Summarize,
    private readonly read: ReadModule,
    readonly libraryTops: Set<string>,
    maxAlive?: number,
  ) {
    this.cache = new SummaryCache<Loaded>(maxAlive);
  }

  /** Whether a top-level module name, written in `file`, is one of the project's (not a library's). */
  isProjectTop(file: string, top: string): boolean {
    return !this.libraryTops.has(top) && this.resolver.isProjectTop(file, top);
  }

  /**
   * A module's text, as this host reads modules (undefined: unreadable). Not kept: its readers keep
   * what they make of it (the texts' facts, ./projectfacts.ts; the summary), and the texts of a
   * large tree (the stdlib: 30 MB per thread) would outlive them.
   */
  text(file: string): string | undefined {
    return this.read(file);
  }

  /** The per-file view an interpreter asks through; foreign classes join `classes` (the file's registry overlay). */
  view(file: string, classes: ClassRegistry): CrossFile {
    return new CrossFile(this, file, classes);
  }

  load(file: string): Loaded | undefined {
    const had = this.cache.get(file);
    if (had !== undefined) return had ?? undefined;
    // A module still being summarised (an import cycle) answers nothing: the cycle is cut there.
    if (this.busy.has(file) || this.cache.full()) return undefined;
    const text = this.text(file);
    if (text === undefined) {
      this.cache.none(file);
      return undefined;
    }
    this.busy.add(file);
    try {
      const view = new CrossFile(this, file, undefined);
      let summary: ModuleSummary | undefined;
      try {
        summary = this.summarize(text, file, view);
      } catch (e) {
        // A module nested too deep for the interpreter is not followed (the file that imports it is still checked).
        if (!isStackOverflow(e)) throw e;
      }
      if (!summary) {
        this.cache.none(file);
        return undefined;
      }
      view.bindClasses(summary.classes);
      this.computed++;
      const made = summary;
      return this.cache.add(file, (index) => ({
        index,
        file,
        summary: made,
        view,
        read: view.read,
        fns: new Map(),
        uses: 0,
        used: 0,
        size: text.length,
        release: () => made.release(),
      }));
    } finally {
      this.busy.delete(file);
    }
  }

  /** Whether a file's summary was made (or tried) by this host, alive or dropped since. */
  has(file: string): boolean {
    return this.cache.has(file);
  }

  /** A summary by index (made again if it was dropped). */
  byIndex(i: number): Loaded | undefined {
    const m = this.cache.byIndex(i);
    const file = m ? undefined : this.cache.fileAt(i);
    return m ?? (file === undefined ? undefined : this.load(file));
  }

  /** The function a reference `<mIDX@START>` names (made again from its offset after a drop, with the class it had). */
  fn(m: Loaded, start: number): Atom | undefined {
    const node = m.fns.has(start) ? undefined : m.summary.fnAt(start);
    if (node) m.fns.set(start, funcAtom(node, this.cache.fnClass.get(`${m.file}@${start}`)));
    return m.fns.get(start);
  }

  /** A function of m handed out as a reference: its class is kept by file and offset. */
  handedOut(m: Loaded, a: Extract<Atom, { kind: 'func' }>): void {
    this.cache.fnClass.set(`${m.file}@${a.fn.startIndex}`, a.cls);
  }

  /** The files whose summaries a set of modules read, transitively. */
  closure(files: Iterable<string>): string[] {
    return this.cache.closure(files);
  }

  /** Frees the summaries' trees (this host is not asked again). */
  release(): void {
    this.cache.releaseAll();
  }
}

/** One file's window on the project's modules. */
export class CrossFile {
  /** Module files this file's answers were read from (directly). */
  readonly read = new Set<string>();
  /** Foreign classes copied into the file's registry, and the module file each came from. */
  private readonly foreign = new Map<string, string>();
  private readonly candidates = new Map<string, boolean>();

  constructor(
    private readonly host: ProjectModules,
    readonly file: string,
    private classes: ClassRegistry | undefined,
  ) {}

  bindClasses(classes: ClassRegistry): void {
    this.classes = classes;
  }

  /** Every module file this file's findings depend on (transitively). */
  deps(): string[] {
    return this.host.closure(this.read);
  }

  /** `from ..m import x` written in this file, as an absolute dotted name (undefined above the top). */
  absolute(level: number, module: string): string | undefined {
    return this.host.resolver.absolute(this.file, level, module);
  }

  /** Whether a reference names something of the project's modules (never a name the rules know as a library's). */
  candidate(q: string): boolean {
    if (FN_REF.test(q)) return true;
    const top = /^[A-Za-z_]\w*/.exec(q)?.[0];
    if (!top) return false;
    let c = this.candidates.get(top);
    if (c === undefined) {
      c = this.host.isProjectTop(this.file, top);
      this.candidates.set(top, c);
    }
    return c;
  }

  /** The class key a project class's dotted name refers to (registered in the file's registry). */
  classKey(q: string): string | undefined {
    if (!this.candidate(q)) return undefined;
    const v = this.evaluate(q, 0);
    const c = v?.length === 1 && v[0]!.kind === 'class' ? v[0] : undefined;
    return c?.kind === 'class' ? c.key : undefined;
  }

  /** A member of a foreign class (an instance's unless `ofClass`), from the module that defines it. */
  member(key: string, attr: string, ofClass: boolean): Type | undefined {
    // Asked again and again (each base of each class up an MRO): the same text gives the same answer.
    const k = `${ofClass ? 'c' : 'i'}${key}\0${attr}`;
    if (this.members.has(k)) return this.members.get(k);
    const t = this.memberOf(key, attr, ofClass);
    this.members.set(k, t);
    return t;
  }

  private readonly members = new Map<string, Type | undefined>();

  private memberOf(key: string, attr: string, ofClass: boolean): Type | undefined {
    const file = this.foreign.get(key);
    const m = file === undefined ? undefined : this.host.load(file);
    if (!m) return undefined;
    m.uses++;
    try {
      const t = m.summary.member([ofClass ? classAtom(key) : instAtom(key)], attr);
      return isUnknown(t) ? undefined : this.portable(t, m, 0);
    } finally {
      m.uses--;
    }
  }

  /** The module file the head of a reference (its names before the first call) resolves to (no module is read). */
  moduleOf(q: string): string | undefined {
    const head = q.split('(')[0]!.replace(/\.$/, '');
    return this.host.resolver.resolve(this.file, head)?.file;
  }

  /** The module a reference to a project name is in, and the names after it (`compat.shutil.rmtree`: compat's file, `shutil`, `rmtree`; no module is read). */
  whereIs(q: string): { file: string; rest: readonly string[] } | undefined {
    if (FN_REF.test(q) || q.includes('(')) return undefined;
    const r = this.host.resolver.resolve(this.file, q);
    return r && r.rest.length ? r : undefined;
  }

  /** The host's modules (for what is read of their texts: ./projectfacts.ts). */
  get modules(): ProjectModules {
    return this.host;
  }

  /** What a project function (a reference to it) does with its parameters. */
  effects(q: string): ParamEffect[] {
    const v = this.evaluate(q, 0);
    const a = v?.length === 1 ? v[0]! : undefined;
    const ref = a?.kind === 'ref' ? FN_REF.exec(a.qualname) : null;
    const m = ref ? this.host.byIndex(Number(ref[1])) : undefined;
    const fn = m && this.host.fn(m, Number(ref![2]));
    if (!m || !fn) return [];
    m.uses++;
    try {
      return m.summary.effects([fn]);
    } finally {
      m.uses--;
    }
  }

  /** Whether a class key came from another module of the project. */
  isForeign(key: string): boolean {
    return this.foreign.has(key);
  }

  /** The value of a symbolic reference (`app.rt.make().runtime`), in this file's terms; undefined when not a project value. */
  evaluate(q: string, depth: number): Type | undefined {
    try {
      return this.evaluateIn(q, depth);
    } catch (e) {
      // A module too deep to infer answers nothing.
      if (!isStackOverflow(e)) throw e;
      return undefined;
    }
  }

  private evaluateIn(q: string, depth: number): Type | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const tokens = q.match(/<m\d+@\d+>|[A-Za-z_]\w*|\(\)/g);
    if (!tokens) return undefined;
    let m: Loaded | undefined;
    let t: Type | undefined;
    let i: number;
    const fn = FN_REF.exec(tokens[0]!);
    if (fn) {
      m = this.host.byIndex(Number(fn[1]));
      const a = m && this.host.fn(m, Number(fn[2]));
      if (!m || !a) return undefined;
      t = [a];
      i = 1;
    } else {
      let names = 0;
      while (names < tokens.length && tokens[names] !== '()') names++;
      const r = this.host.resolver.resolve(this.file, tokens.slice(0, names).join('.'));
      if (!r || !r.rest.length) return undefined;
      m = this.host.load(r.file);
      if (!m) return undefined;
      this.read.add(m.file);
      i = names - r.rest.length + 1;
    }
    // In use until its answer is portable: not dropped meanwhile (./summarycache.ts).
    m.uses++;
    try {
      t ??= m.summary.name(tokens[i - 1]!);
      if (!t) return undefined;
      for (; i < tokens.length; i++) {
        // A reference to another project module on the way: the rest is evaluated from the module that holds it.
        const only = t.length === 1 ? t[0]! : undefined;
        if (only?.kind === 'ref' && m.view.candidate(only.qualname)) return this.via(m, `${only.qualname}${joinTokens(tokens.slice(i))}`, depth);
        const tok = tokens[i]!;
        t = tok === '()' ? m.summary.invoke(t) : m.summary.member(t, tok);
      }
      if (isUnknown(t)) return undefined;
      return this.portable(t, m, depth);
    } finally {
      m.uses--;
    }
  }

  /** Evaluated from module m, copied into this file. */
  private via(m: Loaded, q: string, depth: number): Type | undefined {
    const t = m.view.evaluate(q, depth + 1);
    return t ? this.copy(t, m.view) : undefined;
  }

  /** A type of module m's interpreter, in this file's terms. */
  private portable(t: Type, m: Loaded, depth: number): Type {
    return union(...t.map((a) => this.portableAtom(a, m, depth)));
  }

  private portableAtom(a: Atom, m: Loaded, depth: number): Type {
    switch (a.kind) {
      case 'func': {
        m.fns.set(a.fn.startIndex, a);
        this.host.handedOut(m, a);
        return [refAtom(`<m${m.index}@${a.fn.startIndex}>`)];
      }
      case 'ref':
        if (!m.view.candidate(a.qualname)) return [a];
        return this.via(m, a.qualname, depth) ?? (a.qualname.includes('(') ? UNKNOWN : [a]);
      case 'class':
        return [classAtom(this.adopt(a.key, m, depth))];
      case 'inst': {
        if (a.key.startsWith('?') && m.view.candidate(a.key.slice(1))) return instancesOf(this.via(m, a.key.slice(1), depth) ?? [a]);
        const key = this.adopt(a.key, m, depth);
        if (!a.fields || depth > 3) return [instAtom(key, undefined, a.exclude)];
        const fields: Record<string, Type> = {};
        for (const k in a.fields) fields[k] = this.portable(a.fields[k]!, m, depth + 1);
        return [instAtom(key, fields, a.exclude)];
      }
      case 'tuple':
        return [tupleAtom(a.items.map((x) => this.portable(x, m, depth + 1)))];
      case 'seq':
        return [seqAtom(this.portable(a.elem, m, depth + 1))];
      default:
        return [a];
    }
  }

  /** A class key of module m, made known to this file: a class defined there joins this file's registry with its bases. */
  private adopt(key: string, m: Loaded, depth: number): string {
    if (!key.startsWith('<local>') || this.foreign.has(key)) return key;
    if (m.view !== this && m.view.foreign.has(key)) return this.copyClass(key, m.view);
    const info = m.summary.classes.get(key);
    if (!info || !this.classes) return key;
    this.foreign.set(key, m.file);
    const bases = info.bases.map((b) => {
      if (b.startsWith('?') && m.view.candidate(b.slice(1))) return m.view.classKey(b.slice(1)) ?? b;
      return this.adopt(b, m, depth);
    });
    this.classes.add(copyInfo(info, bases));
    return key;
  }

  /** A class another view adopted, adopted here too (from the module it came from). */
  private copyClass(key: string, other: CrossFile): string {
    const m = this.host.load(other.foreign.get(key)!);
    return m ? this.adopt(key, m, 0) : key;
  }

  /** A type another view made portable, made this file's (its foreign classes adopted here too). */
  private copy(t: Type, other: CrossFile): Type {
    for (const r of other.read) this.read.add(r);
    const visit = (x: Type, depth: number): void => {
      if (depth > 4) return;
      for (const a of x) {
        if ((a.kind === 'class' || a.kind === 'inst') && other.foreign.has(a.key)) this.copyClass(a.key, other);
        if (a.kind === 'inst' && a.fields) for (const k in a.fields) visit(a.fields[k]!, depth + 1);
        if (a.kind === 'tuple') for (const it of a.items) visit(it, depth + 1);
        if (a.kind === 'seq') visit(a.elem, depth + 1);
      }
    };
    visit(t, 0);
    return t;
  }
}
