/**
 * Entry points → rule targets: the calls the record's snippets protect, resolved through their
 * imports (`json.loads`, `pkg.Klass(...)`, `Klass.from_string`, `<Klass instance>.method()`), or
 * the raising `def` itself when the snippets show nothing. Classes the targets name join the
 * class registry.
 */
import { newClassInfo } from '../../rules/classes.js';
import { ensureClass, type ClassSink } from './state.js';
import { describeTarget, splitQualified, symbolMatches, triggerKey } from '../../rules/names.js';
import type { RuleTarget, SymbolRef } from '../../rules/types.js';
import { protectedCalls, qualifiedCallee, receiverClasses, splitImport } from './entry.js';
import { looksLikeClass, type SnippetFacts } from './snippets.js';
import type { RaisingDef, SourceFacts } from './source.js';

/** A candidate entry point from the snippets. */
interface QualifiedEntry {
  q: string;
  modulePart: string;
  path: string;
  named: boolean;
  chained: boolean;
  /** Shown by `triggerScenarios` (the scenario itself), not only sitting in a `try` body or a `# before` part. */
  strong: boolean;
}
interface MethodEntry {
  classes: string[];
  method: string;
  named: boolean;
  receiverCall?: string;
}

function sym(module: string, path: string): SymbolRef {
  return { module, path, aliases: [] };
}

/** An entry as the snippets write it, and where it is defined when that differs (a re-export). */
function written(e: QualifiedEntry, definedIn: string): string {
  return `${e.q}()${definedIn !== e.modulePart && definedIn.startsWith(`${e.modulePart}.`) ? ` [defined in ${definedIn}]` : ''}`;
}

/** The targets of one record, as they are derived: each once, with how `records check` shows it. */
export class TargetBuilder {
  readonly targets: RuleTarget[] = [];
  readonly shown: string[] = [];
  readonly kinds: string[] = [];
  readonly triggers = new Set<string>();
  /** Classes of method targets, in order. */
  readonly receiverKeys: string[] = [];
  private readonly isStatic: boolean;
  private readonly isProperty: boolean;
  readonly isCtor: boolean;
  private readonly defNames: Set<string>;
  private readonly publicNames: string[];

  constructor(
    private readonly def: RaisingDef,
    private readonly module: string,
    private readonly src: SourceFacts,
    private readonly classes: ClassSink,
  ) {
    this.isStatic = def.decorators.some((d) => /(^|\.)(classmethod|staticmethod)$/.test(d));
    this.isProperty = def.decorators.some((d) => /(^|\.)(property|cached_property|setter|getter|deleter)$/.test(d));
    this.isCtor = def.inClass && (def.name === '__init__' || def.name === '__new__');
    this.defNames = new Set([def.name, ...def.otherNames]);
    this.publicNames = [...this.defNames].filter((n) => !n.startsWith('_'));
  }

  add(t: RuleTarget, kind: string, display?: string): void {
    const key = describeTarget(t);
    if (this.targets.some((x) => describeTarget(x) === key && x.kind === t.kind)) return;
    this.targets.push(t);
    this.shown.push(display ?? key);
    if (!this.kinds.includes(kind)) this.kinds.push(kind);
    if (t.kind === 'method') {
      this.triggers.add(t.method);
      this.triggers.add(splitQualified(t.classKey).name);
    } else this.triggers.add(triggerKey(t));
  }

  registerClass(key: string, aliases: string[] = []): void {
    const { name } = splitQualified(key);
    const shown = key.startsWith(`${this.module}.`) ? this.src.classes.get(name) : undefined;
    // The methods its body defines, as the window shows them: an override there stops a base's raising method.
    this.classes.add(newClassInfo(key, { aliases, bases: shown ? shown.bases : [], ...(shown?.defs.length ? { ownMethods: new Set(shown.defs) } : {}) }));
    // Its bases as sourceCode names them, so `isinstance(x, Base)` and `x: Base` know the relation.
    for (const b of shown?.bases ?? []) if (b.includes('.')) ensureClass(this.classes, newClassInfo(b, {}));
  }

  /** A class named by the snippets → its canonical key (the defining module when it is a re-export of it). */
  canonicalClass(q: string): { key: string; aliases: string[] } {
    const { name } = splitQualified(q);
    const local = `${this.module}.${name}`;
    if (!q.includes('.')) return { key: local, aliases: [] };
    if (symbolMatches({ module: this.module, path: name, aliases: [] }, q)) return { key: local, aliases: [] };
    if (this.def.className === name) return { key: local, aliases: [q] };
    return { key: q, aliases: [] };
  }

  private related(m: string): boolean {
    return this.module === m || this.module.startsWith(`${m}.`);
  }

  /**
   * Targets from the calls the snippets protect (`try` bodies, `# before` parts, trigger scenarios).
   * `inferred`: the raising def comes from the code fields (sourceCode shows none), so only the
   * calls that name it reach it.
   */
  fromSnippets(facts: SnippetFacts, inferred: boolean): void {
    const lib = this.module.split('.')[0]!;
    const qualified: QualifiedEntry[] = [];
    const methods: MethodEntry[] = [];
    // A property is reached by reading it (`obj.prop`), which the snippets show as a read, not a call.
    for (const c of [...protectedCalls(facts), ...(this.isProperty ? protectedCalls({ ...facts, calls: facts.reads }) : [])]) {
      const q = qualifiedCallee(c, lib);
      if (q && q.split('.')[0] === lib && q.includes('.')) {
        const { modulePart, path } = splitImport(q, facts.modules);
        const last = path.split('.').pop()!;
        const named = this.defNames.has(last) || (this.isCtor && last === (this.def.className ?? last) && looksLikeClass(last));
        const strong = c.from === 'triggerScenarios';
        const prev = qualified.find((e) => e.q === q);
        if (prev) prev.strong ||= strong;
        else qualified.push({ q, modulePart, path, named, chained: c.chained, strong });
        continue;
      }
      if (!c.method || (!c.receiver && !c.receiverCall)) continue;
      const named = this.defNames.has(c.method);
      const cls = receiverClasses(c, facts, named);
      if (cls.length) methods.push({ classes: cls, method: c.method, named, receiverCall: c.receiverCall });
    }
    // When the snippets call the raising def itself, the other calls of a `try` body are setup
    // (`client = pkg.Client(); client.run()`); calls a trigger scenario shows are kept regardless.
    // Method calls not named after the raising def count only when nothing else reaches the library.
    const namedMethods = methods.filter((m) => m.named);
    const anyNamed = namedMethods.length > 0 || qualified.some((e) => e.named);
    // A def inferred from the snippets (sourceCode shows none) is reached only by the calls that name it.
    const useMethods = qualified.length || namedMethods.length || inferred ? namedMethods : methods;
    const useQualified = qualified.filter(
      (e) => (e.named || ((e.strong || !anyNamed) && !inferred)) && !(e.chained && namedMethods.some((m) => m.receiverCall === e.q)),
    );
    const constructorPaths = new Set(useQualified.filter((e) => !e.path.includes('.') && looksLikeClass(e.path)).map((e) => `${e.modulePart}.${e.path}`));
    for (const e of useQualified) this.qualifiedTarget(e, constructorPaths);
    for (const m of useMethods) this.methodTargets(m);
  }

  private qualifiedTarget(e: QualifiedEntry, constructorPaths: Set<string>): void {
    const { def, module } = this;
    const segs = e.path.split('.');
    const last = segs[segs.length - 1]!;
    if (this.isCtor && e.named) {
      // `Klass(...)` raising in `Klass.__init__` / `__new__`.
      const key = def.className && this.related(e.modulePart) && segs.length === 1 ? `${module}.${def.className}` : `${e.modulePart}.${e.path}`;
      this.registerClass(key);
      const k = splitQualified(key);
      this.add({ kind: 'call', symbol: sym(k.module, k.name), what: 'constructor' }, 'constructor', written(e, k.module));
    } else if (this.isStatic && last === def.name && segs.length >= 2) {
      // `Klass.from_string(...)` on the class object (and on instances: a classmethod is reachable from both).
      const clsPath = segs.slice(0, -1).join('.');
      const key = def.className === segs[segs.length - 2] && this.related(e.modulePart) ? `${module}.${def.className}` : `${e.modulePart}.${clsPath}`;
      this.registerClass(key);
      const k = splitQualified(key);
      this.add({ kind: 'call', symbol: sym(k.module, `${k.name}.${last}`), what: 'classmethod' }, 'classmethod', written(e, k.module));
      this.add({ kind: 'method', classKey: key, method: last }, 'classmethod', `<${k.name} instance>.${last}()`);
    } else if (!def.inClass && segs.length === 1 && last === def.name && this.related(e.modulePart)) {
      // The raising module function, imported from its module or any ancestor package (a re-export).
      this.add({ kind: 'call', symbol: sym(module, last), what: 'function' }, 'function', written(e, module));
    } else if (segs.length === 1) {
      const ctor = looksLikeClass(last);
      if (ctor) this.registerClass(`${e.modulePart}.${last}`);
      this.add(
        { kind: 'call', symbol: sym(e.modulePart, last), what: ctor ? 'constructor' : 'function' },
        ctor ? 'constructor' : 'function',
        written(e, e.modulePart),
      );
    } else {
      // `pkg.Klass.method(...)` or an attribute chain through a module-level object (`pkg.OldName.create(...)`).
      const head = `${e.modulePart}.${segs.slice(0, -1).join('.')}`;
      const isClass = constructorPaths.has(head) || (this.related(e.modulePart) && this.src.classes.has(segs[0]!) && segs.length === 2);
      this.add(
        { kind: 'call', symbol: sym(e.modulePart, e.path), what: isClass ? 'classmethod' : 'attribute' },
        isClass ? 'classmethod' : 'attribute',
        written(e, e.modulePart),
      );
    }
  }

  private methodTargets(m: MethodEntry): void {
    const names = m.named ? [...new Set([m.method, ...this.publicNames])] : [m.method];
    for (const q of m.classes) {
      const { key, aliases } = this.canonicalClass(q);
      this.registerClass(key, aliases);
      if (!this.receiverKeys.includes(key)) this.receiverKeys.push(key);
      for (const n of names)
        this.add(
          { kind: 'method', classKey: key, method: n, ...(this.isProperty ? { property: true as const } : {}) },
          this.isProperty ? 'property' : 'method',
        );
    }
  }

  /** Targets from the raising def itself (the snippets show no entry point); the reason when there are none. */
  fromDef(guardClasses: string[]): string {
    const { def, module } = this;
    if (!def.inClass) {
      if (def.name.startsWith('_')) return `'${def.name}' is a private helper and the record shows no public call that reaches it`;
      this.add({ kind: 'call', symbol: sym(module, def.name), what: 'function' }, 'function');
      return '';
    }
    const classKeys = def.className ? [{ key: `${module}.${def.className}`, aliases: [] }] : guardClasses.map((q) => this.canonicalClass(q));
    if (!classKeys.length) {
      return `too imprecise: '${def.name}' is a method of a class the record never names (sourceCode does not show the class line; no isinstance check, guard or qualified call in the snippets): a rule would flag every .${def.name}()`;
    }
    for (const { key, aliases } of classKeys) {
      this.registerClass(key, aliases);
      const { module: m, name } = splitQualified(key);
      if (this.isCtor) {
        this.add({ kind: 'call', symbol: sym(m, name), what: 'constructor' }, 'constructor');
        continue;
      }
      if (!this.publicNames.length) return `'${def.name}' is a private method of ${name} and the record shows no public call that reaches it`;
      if (!this.receiverKeys.includes(key)) this.receiverKeys.push(key);
      for (const n of this.publicNames) {
        if (this.isStatic) this.add({ kind: 'call', symbol: sym(m, `${name}.${n}`), what: 'classmethod' }, 'classmethod');
        this.add(
          { kind: 'method', classKey: key, method: n, ...(this.isProperty && !this.isStatic ? { property: true as const } : {}) },
          this.isStatic ? 'classmethod' : this.isProperty ? 'property' : 'method',
        );
      }
    }
    return '';
  }

  /**
   * A method target of a class whose module binds a name to a module-level instance's method
   * (`randrange = _inst.randrange` with `_inst = Random()`, ../../records/ground.ts boundMethods):
   * calling that name is the call too.
   */
  fromBoundMethods(bound: Readonly<Record<string, readonly string[]>> | undefined): void {
    if (!bound) return;
    for (const t of [...this.targets]) {
      if (t.kind !== 'method' || t.property) continue;
      const { module: m, name } = splitQualified(t.classKey);
      if (m !== this.module) continue;
      for (const alias of bound[`${name}.${t.method}`] ?? []) this.add({ kind: 'call', symbol: sym(m, alias), what: 'function' }, 'function');
    }
  }

  /**
   * The module's subclasses of a method target's class (`configparser.ConfigParser` of
   * `RawConfigParser`, ../../records/ground.ts moduleClasses), registered with their bases and the
   * methods their bodies define: their objects are receivers too, unless one defines the method again.
   */
  fromSubclasses(classes: Readonly<Record<string, { bases: readonly string[]; defs: readonly string[] }>> | undefined): void {
    if (!classes) return;
    const reached = new Set(
      this.targets
        .filter((t) => t.kind === 'method')
        .map((t) => splitQualified(t.classKey))
        .filter((c) => c.module === this.module)
        .map((c) => c.name),
    );
    if (!reached.size) return;
    for (let grew = true; grew; ) {
      grew = false;
      for (const [name, c] of Object.entries(classes)) {
        if (reached.has(name) || !c.bases.some((b) => reached.has(b))) continue;
        reached.add(name);
        grew = true;
        const bases = c.bases.map((b) => (b.includes('.') ? b : `${this.module}.${b}`));
        this.classes.add(newClassInfo(`${this.module}.${name}`, { bases, ...(c.defs.length ? { ownMethods: new Set(c.defs) } : {}) }));
        this.triggers.add(name);
      }
    }
  }

  /** Entry points as `records check` lists them: calls first. */
  entryPoints(): string[] {
    return this.targets
      .map((t, i) => ({ t, s: this.shown[i]! }))
      .sort((a, b) => (a.t.kind === b.t.kind ? 0 : a.t.kind === 'call' ? -1 : 1))
      .map((x) => x.s);
  }
}
