/**
 * The semantic stage: the semantic model of one file. A flow-sensitive abstract interpreter over the
 * tree-sitter tree infers, at every interesting call, the type of its receiver: imports
 * (every form, also under `if TYPE_CHECKING:`), assignments, annotations (`Optional`, `X | None`,
 * string annotations, `List[X]`), `self.x` fields, factories (annotated or inferred returns),
 * tuple unpacking, loops and comprehensions; `isinstance`, guard functions and early exits narrow.
 * Branches merge into unions. Only calls whose name is a rule trigger are recorded.
 *
 * The rooms: ./env.ts (scopes), ./statements.ts and ./expressions.ts (the flow), ./annotations.ts,
 * ./narrowing.ts, ./members.ts (members and construction), ./sites.ts (call-site recording, an
 * observer). This file runs them over a module: the module first, then every function body with
 * the final environment of its enclosing scope, when it can record a call site that a rule can match
 * in this file (./demand.ts);
 * function return types and `self.x` fields are inferred on demand and memoised.
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren, parentOf } from '../parse/syntax.js';
import { decoratorNames } from '../python/defs.js';
import { parameters } from '../python/params.js';
import type { ClassRegistry } from '../rules/classes.js';
import type { RuleSet } from '../rules/ruleset.js';
import { readFlows, type FileFlows } from '../python/flows.js';
import { Demand, liveNames } from './demand.js';
import { Env, fnCtx, inert, type SelfFields } from './env.js';
import { Scopes } from './scopes.js';
import { SiteRecorder, type CallSite } from './sites.js';
import { Statements } from './statements.js';
import { NEVER, NONE, UNKNOWN, classAtom, instAtom, seqAtom, union, type Atom, type Type } from './types.js';
import { parsePython } from '../parse/parser.js';
import type { CrossFile, ModuleSummary, ProjectModules, Summarize } from './crossfile.js';
import { paramEffects, type ParamEffect } from './effects.js';
import { mayPassOn, projectImports } from './projectfacts.js';
import { prefilterFor, type ProjectImports } from '../prefilter/index.js';

export type { CallSite } from './sites.js';
export { narrowType } from './narrowing.js';

export interface FileModel {
  sites: CallSite[];
  classes: ClassRegistry;
  /** Qualified name a dotted expression refers to at module level (for `except` clauses and `with` items). */
  qualify(node: Node): string | undefined;
  /** The file's scopes, for queries: what each binds and uses, what a statement sees (made on first use). */
  readonly scopes: Scopes;
  /** The project module files its findings were read from, transitively (./crossfile.ts; empty when read alone). */
  deps(): string[];
}

export interface ModelOptions {
  /** The text the tree was parsed from (else read from the tree). */
  source?: string;
  /** Interpret only the function bodies that can record a call site (./demand.ts; default true). False interprets every body, for comparison. */
  onDemand?: boolean;
  /** The project's modules, for what the file imports from them (./crossfile.ts), and the file's absolute path. */
  project?: { modules: ProjectModules; abs: string };
}

export function buildModel(root: Node, rules: RuleSet, file = '<file>', opts: ModelOptions = {}): FileModel {
  const source = opts.source ?? root.text;
  let flows: FileFlows | undefined;
  const facts = () => (flows ??= readFlows(root, source));
  const project = opts.project ? projectImports(opts.project.modules, opts.project.abs, source, prefilterFor(rules)) : undefined;
  const demand = opts.onDemand === false ? undefined : onDemand(source, rules, facts, project);
  const it = new Interpreter(root, rules, file, demand, facts);
  if (opts.project) it.cross = opts.project.modules.view(opts.project.abs, it.classes);
  return it.run();
}

/** What the model interprets of a file (./demand.ts): triggers only the project meets are live beside the names its project imports bind (all of them live when a star import may bind any). */
function onDemand(source: string, rules: RuleSet, facts: () => FileFlows, project: ProjectImports | undefined): Demand {
  const { live, viaProject } = liveNames(source, rules, demandNames(rules), project);
  const seeds = viaProject.size ? project?.()?.locals : undefined;
  if (!seeds) for (const n of viaProject) live.add(n);
  return new Demand(source, live, facts, seeds ? { triggers: viaProject, seeds } : undefined);
}

/**
 * The summaries of project modules (./crossfile.ts): a module parsed and run at module level by
 * the same interpreter, recording nothing; what its names, functions and classes give is inferred
 * on demand. Guards are left out, so that a summary is the same whichever file asks first.
 */
export function summarizer(rules: RuleSet): Summarize {
  const bare: RuleSet = { ...rules, guards: new Map() };
  return (text: string, file: string, view: CrossFile): ModuleSummary | undefined => {
    const tree = parsePython(text);
    const root = tree.rootNode;
    let flows: FileFlows | undefined;
    const it = new Interpreter(root, bare, file, undefined, () => (flows ??= readFlows(root, text)));
    it.cross = view;
    it.eagerBases = false;
    try {
      it.summarize();
    } catch (e) {
      tree.delete();
      throw e;
    }
    return it;
  };
}

const demandMemo = new WeakMap<RuleSet, Set<string>>();

/** The trigger names, and the simple names of a trigger class's aliases (a name the registry resolves to that class). */
function demandNames(rules: RuleSet): Set<string> {
  let names = demandMemo.get(rules);
  if (names) return names;
  names = new Set(rules.triggerNames);
  for (const c of rules.classes.all()) if (rules.triggerNames.has(c.name)) for (const a of c.aliases) names.add(a.slice(a.lastIndexOf('.') + 1));
  demandMemo.set(rules, names);
  return names;
}

class Interpreter extends Statements {
  private env = new Env();
  private readonly recorder: SiteRecorder;
  private readonly fnInference = new Map<number, Type>();
  private readonly inferring = new Set<number>();
  private readonly selfAssignMemo = new Map<number, Map<string, Type>>();
  private readonly effectMemo = new Map<number, ParamEffect[]>();
  private readonly deferred: { fn: Node; outer: Env | 'module'; cls?: string }[] = [];

  constructor(
    private readonly root: Node,
    rules: RuleSet,
    file: string,
    private readonly demand: Demand | undefined,
    readonly fileFlows: () => FileFlows,
  ) {
    const recorder = new SiteRecorder(rules.triggerNames);
    super(rules, recorder, file);
    this.recorder = recorder;
  }

  moduleEnv(): Env {
    return this.env;
  }

  /** Runs the module's top level only, recording nothing: the module as others import it. */
  summarize(): void {
    const end = this.block(namedChildren(this.root), this.env, fnCtx(null, false));
    if (end) this.env = end;
  }

  /** Frees the module's syntax tree (a summary dropped from the cache): its nodes are not read after. */
  release(): void {
    this.root.tree.delete();
  }

  name(n: string): Type | undefined {
    return this.env.vars.get(n);
  }

  member(t: Type, attr: string): Type {
    return this.members.member(t, attr);
  }

  invoke(t: Type): Type {
    return this.callOf(t);
  }

  fnAt(start: number): Node | undefined {
    let n: Node | null = this.root.descendantForIndex(start);
    while (n && !(n.type === 'function_definition' && n.startIndex === start)) n = parentOf(n);
    return n ?? undefined;
  }

  effects(t: Type): ParamEffect[] {
    return t.flatMap((a) => (a.kind === 'func' && !a.cls ? this.effectsOf(a.fn) : []));
  }

  /** Module-level names of functions that call a rule's method on a parameter (defined here, or imported from the project). */
  private passingNames(): string[] {
    const out: string[] = [];
    for (const [name, t] of this.env.vars) if (t.some((a) => this.calleeEffects(a).length > 0)) out.push(name);
    return out;
  }

  /** What the function a value is does with its parameters: a plain function of the file, or a project module's (read when its text may tell). */
  calleeEffects(a: Atom): ParamEffect[] {
    if (a.kind === 'func') return a.cls ? [] : this.effectsOf(a.fn);
    if (a.kind !== 'ref' || !this.cross?.candidate(a.qualname) || !mayPassOn(this.cross, a.qualname, prefilterFor(this.rules))) return [];
    return this.cross.effects(a.qualname);
  }

  /** What a plain function of the file does with its parameters (./effects.ts), memoised; a recursive one is cut. */
  effectsOf(fn: Node): ParamEffect[] {
    const had = this.effectMemo.get(fn.id);
    if (had) return had;
    this.effectMemo.set(fn.id, []);
    const out = paramEffects(
      fn,
      (m) => this.rules.triggerNames.has(m),
      (callee) => this.expr(callee, this.env, inert()).flatMap((a) => this.calleeEffects(a)),
    );
    this.effectMemo.set(fn.id, out);
    return out;
  }

  run(): FileModel {
    const ctx = fnCtx(null, true);
    const end = this.block(namedChildren(this.root), this.env, ctx);
    if (end) this.env = end;
    // A body that calls a function that calls a rule's method on what it is passed can record a site (./effects.ts).
    if (this.demand && this.deferred.length) this.demand.addLive(this.passingNames());
    // Check every function body with the final environment of its enclosing scope.
    while (this.deferred.length) {
      const d = this.deferred.shift()!;
      // A body that names no trigger nor anything that may carry one records nothing (./demand.ts).
      if (this.demand && !this.demand.live(d.fn)) continue;
      this.analyzeFunction(d.fn, d.outer === 'module' ? this.env : d.outer, d.cls, true);
    }
    const moduleEnv = this.env;
    const root = this.root;
    let scopes: Scopes | undefined;
    return {
      get scopes() {
        return (scopes ??= new Scopes(root));
      },
      sites: this.recorder.list(),
      classes: this.classes,
      deps: () => this.cross?.deps() ?? [],
      qualify: (node: Node) => {
        // A class the enclosing function defines (`class Worker(Thread):` in a test method): its own key.
        const def = node.type === 'identifier' ? (scopes ??= new Scopes(root)).definitionAt(node.text, node) : undefined;
        const local = def?.type === 'class_definition' ? `<local>${this.file}#${node.text}@${def.startPosition.row + 1}` : undefined;
        if (local && this.classes.get(local)) return local;
        const t = this.expr(node, this.importsAbove(node, moduleEnv), inert());
        const a = t[0];
        if (t.length !== 1 || !a) return undefined;
        if (a.kind === 'ref') return a.qualname;
        if (a.kind === 'class') return a.key;
        return undefined;
      },
    };
  }

  /** The module's names, and those the imports of the function around `node` bind above it (`import threading` inside a def). */
  private importsAbove(node: Node, moduleEnv: Env): Env {
    let fn: Node | null = node.parent;
    while (fn && fn.type !== 'function_definition') fn = fn.parent;
    const body = fn ? field(fn, 'body') : null;
    if (!body) return moduleEnv;
    const imports = body
      .descendantsOfType(['import_statement', 'import_from_statement'])
      .filter((s): s is Node => !!s && s.startIndex < node.startIndex && enclosingDef(s) === fn!.id);
    if (!imports.length) return moduleEnv;
    const env = new Env(new Map(), moduleEnv);
    for (const s of imports) this.importStmt(s, env);
    return env;
  }

  protected defer(fn: Node, outer: Env | 'module', cls?: string): void {
    this.deferred.push({ fn, outer, cls });
  }

  /** Runs a function body. With `record`, call sites are kept; otherwise only the return type matters (and, with `selfFields`, its `self.x` assignments). */
  private analyzeFunction(fn: Node, outer: Env, cls: string | undefined, record: boolean, selfFields?: SelfFields): Type {
    const env = new Env(new Map(), outer);
    const ps = parameters(fn);
    const decs = decoratorNames(fn);
    const isStatic = decs.some((d) => /(^|\.)staticmethod$/.test(d));
    const isClassMethod = decs.some((d) => /(^|\.)classmethod$/.test(d));
    ps.forEach((p, i) => {
      if (!p.name) return;
      let t: Type = UNKNOWN;
      if (i === 0 && cls && !isStatic) t = isClassMethod ? [classAtom(cls)] : [instAtom(cls)];
      // `x: Foo = None`: None when not passed (an implicit Optional).
      else if (p.annotation) t = p.value?.type === 'none' ? union(this.annotation(p.annotation, outer), NONE) : this.annotation(p.annotation, outer);
      if (p.kind === 'star') t = [seqAtom(t)];
      else if (p.kind === 'kw') t = UNKNOWN;
      env.put(p.name, t);
    });
    const ctx = fnCtx(fn, record, cls, selfFields);
    const body = field(fn, 'body');
    const end = this.body(body, env, ctx);
    const ret = field(fn, 'return_type');
    if (ret) return this.annotation(ret, outer);
    const returns = [...ctx.returns];
    if (end) returns.push(NONE);
    return union(...returns);
  }

  protected returnType(fn: Node, cls: string | undefined): Type {
    const cached = this.fnInference.get(fn.id);
    if (cached) return cached;
    const ret = field(fn, 'return_type');
    if (ret) {
      const t = this.annotation(ret, this.env);
      this.fnInference.set(fn.id, t);
      return t;
    }
    if (this.inferring.has(fn.id)) return NEVER;
    this.inferring.add(fn.id);
    const t = this.analyzeFunction(fn, this.env, cls, false);
    this.inferring.delete(fn.id);
    this.fnInference.set(fn.id, t);
    return t;
  }

  /** `self.x = v` (and `self.x: T = v`) in one method, with v typed in that method's flow. */
  selfAssignments(fn: Node, cls: string): Map<string, Type> {
    const memo = this.selfAssignMemo.get(fn.id);
    if (memo) return memo;
    const out = new Map<string, Type>();
    this.selfAssignMemo.set(fn.id, out);
    const self = parameters(fn)[0]?.name;
    if (!self) return out;
    this.analyzeFunction(fn, this.env, cls, false, { self, out });
    return out;
  }
}

/** The id of the innermost def (or class) around `n`. */
function enclosingDef(n: Node): number | undefined {
  for (let p = n.parent; p; p = p.parent) if (p.type === 'function_definition' || p.type === 'class_definition') return p.id;
  return undefined;
}
