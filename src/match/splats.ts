/**
 * What a call's `**mapping` and `*iterable` arguments can fill, when the calling function shows it:
 *
 * - a local dict whose every binding is a dict written out (`{'stdout': PIPE}`, `dict(cwd=d)`, `{}`)
 *   and whose every other use is read-only or adds a key written out (`opts['stderr'] = PIPE`,
 *   `opts.setdefault('cwd', d)`, `opts.update(env=e)`): it holds some of those keys, no other;
 * - a parameter of the calling function, used the same way (`def spawn(cmd, **kw): Popen(cmd, **kw)`):
 *   it holds what that function's own caller passes, and the keys the function adds.
 *
 * A parameter of the called def that no such splat can fill is at its default. One filled only by
 * what the caller's caller passes is judged at its default too, but only to rule a raise out: the
 * call that passes it is where the raise would be (match/bind.ts).
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';
import { parameters } from '../python/params.js';
import { isIdentifier } from '../python/identifier.js';
import { literalOf } from '../rules/condition/literal.js';
import type { Scopes } from '../semantic/scopes.js';
import { namesOf } from './locals.js';

export interface SplatSource {
  /** Keywords the splats may pass that the calling function writes out. */
  keys: Set<string>;
  /** Some splat holds what the calling function's own caller passed it. */
  fromCaller: boolean;
}

/** Dict methods that neither add a key nor let the dict escape. */
const READ_ONLY = new Set(['get', 'pop', 'keys', 'values', 'items', 'copy', '__contains__', '__getitem__']);

/** Builtins that read their one argument and keep nothing of it (`dict(kw)` copies it). */
const READERS = new Set(['len', 'bool', 'sorted', 'list', 'tuple', 'set', 'dict', 'repr', 'str']);

/** The string a node writes out when it is an identifier-like str literal. */
function keyName(n: Node | null | undefined): string | undefined {
  const v = n?.type === 'string' ? literalOf(n) : undefined;
  return v?.t === 'str' && isIdentifier(v.v) ? v.v : undefined;
}

/** Keys of a dict written out (`{'a': 1}`, `dict(a=1)`, `{}`), or undefined for anything else. */
function writtenKeys(v: Node | null | undefined): string[] | undefined {
  if (v?.type === 'dictionary') {
    const out: string[] = [];
    for (const p of namedChildren(v)) {
      if (p.type === 'comment') continue;
      const k = p.type === 'pair' ? keyName(field(p, 'key')) : undefined;
      if (!k) return undefined;
      out.push(k);
    }
    return out;
  }
  if (v?.type === 'call' && field(v, 'function')?.text === 'dict') {
    const out: string[] = [];
    for (const a of namedChildren(field(v, 'arguments') ?? v)) {
      if (a.type === 'comment') continue;
      const k = a.type === 'keyword_argument' ? field(a, 'name')?.text : undefined;
      if (!k) return undefined;
      out.push(k);
    }
    return out;
  }
  return undefined;
}

/** The keys a read of the dict adds (`[]` for a read that adds none), or undefined when the read may add any or lets the dict escape. */
function keysAdded(read: Node): string[] | undefined {
  const up = read.parent;
  if (!up) return undefined;
  if (up.type === 'dictionary_splat' || up.type === 'list_splat') return [];
  if (up.type === 'comparison_operator' && namedChildren(up)[0]?.id !== read.id) return [];
  if (up.type === 'not_operator' || (up.type === 'if_statement' && field(up, 'condition')?.id === read.id)) return [];
  // `len(kw)`, `sorted(kw)`: read, not kept.
  if (up.type === 'argument_list' && READERS.has(field(up.parent ?? up, 'function')?.text ?? '') && namedChildren(up).length === 1) return [];
  if (up.type === 'subscript' && field(up, 'value')?.id === read.id) {
    const assigned = up.parent?.type === 'assignment' && field(up.parent, 'left')?.id === up.id;
    if (!assigned) return up.parent?.type === 'augmented_assignment' && field(up.parent, 'left')?.id === up.id ? undefined : [];
    const k = keyName(field(up, 'subscript'));
    return k ? [k] : undefined;
  }
  if (up.type !== 'attribute' || field(up, 'object')?.id !== read.id || up.parent?.type !== 'call') return undefined;
  const method = field(up, 'attribute')?.text ?? '';
  const args = namedChildren(field(up.parent, 'arguments') ?? up.parent).filter((a) => a.type !== 'comment');
  if (READ_ONLY.has(method)) return [];
  if (method === 'setdefault') {
    const k = keyName(args[0]);
    return k ? [k] : undefined;
  }
  if (method !== 'update') return undefined;
  if (args.length === 1 && args[0]!.type !== 'keyword_argument') return writtenKeys(args[0]);
  const names = args.map((a) => (a.type === 'keyword_argument' ? field(a, 'name')?.text : undefined));
  return names.every((x): x is string => !!x) ? names : undefined;
}

/** What the splat's name (`kw` of `**kw`) can hold at the call, or undefined when the function does not show it. */
function sourceOf(splat: Node, scopes: Scopes): SplatSource | undefined {
  const n = namedChildren(splat)[0];
  if (n?.type !== 'identifier') return undefined;
  const fn = scopes.scopesOf(n)[0];
  if (fn?.type !== 'function_definition') return undefined;
  const u = namesOf(fn).get(n.text);
  if (!u || u.otherInBody) return undefined;
  const param = parameters(fn).some((p) => p.name === n.text);
  if (param ? u.bindings.length > 0 : u.other || u.bindings.length === 0) return undefined;
  const keys = new Set<string>();
  for (const b of u.bindings) {
    const ks = writtenKeys(field(b, 'right'));
    if (!ks) return undefined;
    for (const k of ks) keys.add(k);
  }
  for (const r of u.reads) {
    const ks = keysAdded(r);
    if (!ks) return undefined;
    for (const k of ks) keys.add(k);
  }
  return { keys, fromCaller: param };
}

/** What every `**` and (from the first) `*` argument of a call can fill, or undefined when one is not shown. */
export function splatSources(splats: Node[], scopes: Scopes): SplatSource | undefined {
  const out: SplatSource = { keys: new Set(), fromCaller: false };
  for (const s of splats) {
    const src = sourceOf(s, scopes);
    // `*items` of a local list: how many it holds is not shown (only a caller's sequence is judged, at its defaults).
    if (!src || (s.type === 'list_splat' && !src.fromCaller)) return undefined;
    for (const k of src.keys) out.keys.add(k);
    out.fromCaller ||= src.fromCaller;
  }
  return out;
}
