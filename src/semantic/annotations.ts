/** Annotations → types: `Optional`, `X | None`, `Union`, containers, tuples, string annotations, `Coroutine`. */
import type { Node } from '../parse/parser.js';
import { parsePython } from '../parse/parser.js';
import { dottedName, field, namedChildren, stringValue } from '../parse/syntax.js';
import type { ClassRegistry } from '../rules/classes.js';
import type { Env } from './env.js';
import { NONE, NONE_ATOM, UNKNOWN, UNKNOWN_ATOM, instAtom, seqAtom, tupleAtom, union, type Atom, type Type } from './types.js';

const CONTAINERS = new Set([
  'List',
  'list',
  'Sequence',
  'Iterable',
  'Iterator',
  'Set',
  'set',
  'FrozenSet',
  'frozenset',
  'Collection',
  'MutableSequence',
  'AbstractSet',
  'Deque',
  'deque',
  'AsyncIterator',
  'AsyncIterable',
  'Generator',
  'AsyncGenerator',
]);
const WRAPPERS = new Set(['Optional', 'Final', 'ClassVar', 'Annotated', 'Awaitable', 'Required', 'NotRequired', 'ReadOnly', 'Type', 'type']);

export class Annotations {
  constructor(
    private readonly classes: ClassRegistry,
    /** The value a name in an annotation has (the interpreter's expression types, recording nothing). */
    private readonly value: (n: Node, env: Env) => Type,
  ) {}

  annotation(node: Node, env: Env): Type {
    let n: Node | null = node;
    if (n.type === 'type') n = namedChildren(n)[0] ?? null;
    if (!n) return UNKNOWN;
    const type = n.type; // read once: each read is a call into the parser
    if (type === 'string' || type === 'concatenated_string') {
      const text = stringValue(n);
      if (!text) return UNKNOWN;
      const tree = parsePython(text);
      try {
        const e = namedChildren(tree.rootNode)[0];
        const inner = e?.type === 'expression_statement' ? namedChildren(e)[0] : undefined;
        return inner ? this.annotation(inner, env) : UNKNOWN;
      } finally {
        tree.delete();
      }
    }
    if (type === 'none') return NONE;
    if (type === 'binary_operator') {
      const l = field(n, 'left');
      const r = field(n, 'right');
      return union(l ? this.annotation(l, env) : UNKNOWN, r ? this.annotation(r, env) : UNKNOWN);
    }
    if (type === 'generic_type' || type === 'subscript') {
      const head = type === 'subscript' ? field(n, 'value') : namedChildren(n)[0];
      const argsNode = type === 'subscript' ? null : namedChildren(n).find((c) => c.type === 'type_parameter');
      const args: Node[] = type === 'subscript' ? n.childrenForFieldName('subscript').filter((x): x is Node => !!x) : argsNode ? namedChildren(argsNode) : [];
      const flat = args.length === 1 && args[0]!.type === 'tuple' ? namedChildren(args[0]!) : args;
      const name = head ? (dottedName(head) ?? '').split('.').pop()! : '';
      if (name === 'Optional' || WRAPPERS.has(name))
        return flat[0] ? (name === 'Optional' ? union(this.annotation(flat[0], env), NONE) : this.annotation(flat[0], env)) : UNKNOWN;
      if (name === 'Union') return union(...flat.map((a) => this.annotation(a, env)));
      if (CONTAINERS.has(name)) return [seqAtom(flat[0] ? this.annotation(flat[0], env) : UNKNOWN)];
      if (name === 'Tuple' || name === 'tuple') {
        if (flat.length === 2 && flat[1]!.type === 'ellipsis') return [seqAtom(this.annotation(flat[0]!, env))];
        return [tupleAtom(flat.map((a) => this.annotation(a, env)))];
      }
      if (name === 'Coroutine' && flat.length === 3) return this.annotation(flat[2]!, env);
      if (name === 'Dict' || name === 'dict' || name === 'Mapping') return UNKNOWN;
      return head ? this.instanceOf(this.annotationHead(head, env)) : UNKNOWN;
    }
    if (type === 'identifier' || type === 'attribute') return this.instanceOf(this.annotationHead(n, env));
    return UNKNOWN;
  }

  private annotationHead(n: Node, env: Env): Type {
    return this.value(n, env);
  }

  /** The instances a class-valued type creates. */
  instanceOf(t: Type): Type {
    const out: Atom[] = [];
    for (const a of t) {
      if (a.kind === 'class') out.push(instAtom(a.key));
      else if (a.kind === 'ref') {
        if (a.qualname === 'None') out.push(NONE_ATOM);
        else out.push(instAtom(this.classes.resolve(a.qualname) ?? `?${a.qualname}`));
      } else if (a.kind === 'none') out.push(a);
      else out.push(UNKNOWN_ATOM);
    }
    return out.length ? out : UNKNOWN;
  }
}
