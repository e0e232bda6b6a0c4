/** A `def`'s parameters as a caller binds them: kinds (`/`, `*`, `*args`, `**kw`) and literal defaults. */
import type { Node } from '../../parse/parser.js';
import { field, namedChildren } from '../../parse/syntax.js';
import { literalOf } from './literal.js';
import type { ParamKind, ParamSpec, PyVal } from './types.js';

/** The parameters of `def` in order; `dropFirst` removes `self` / `cls`. */
export function readParams(def: Node, constant: (name: string) => PyVal | undefined, dropFirst: boolean): ParamSpec[] {
  const params = field(def, 'parameters');
  const out: ParamSpec[] = [];
  let kind: ParamKind = 'normal';
  for (const p of params ? namedChildren(params) : []) {
    if (p.type === 'positional_separator') {
      for (const q of out) if (q.kind === 'normal') q.kind = 'positional-only';
      continue;
    }
    if (p.type === 'keyword_separator') {
      kind = 'keyword-only';
      continue;
    }
    if (p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern') {
      const name = namedChildren(p).find((c) => c.type === 'identifier')?.text ?? '';
      out.push({ name, kind: p.type === 'list_splat_pattern' ? 'var-positional' : 'var-keyword' });
      if (p.type === 'list_splat_pattern') kind = 'keyword-only';
      continue;
    }
    const name = p.type === 'identifier' ? p.text : (field(p, 'name') ?? namedChildren(p).find((c) => c.type === 'identifier'))?.text;
    if (!name) continue;
    const spec: ParamSpec = { name, kind };
    const dv = p.type === 'default_parameter' || p.type === 'typed_default_parameter' ? field(p, 'value') : null;
    if (dv) {
      const lit = literalOf(dv, constant);
      spec.default = lit ?? 'expr';
      if (!lit) spec.defaultText = dv.text;
    }
    out.push(spec);
  }
  if (dropFirst && out.length && out[0]!.kind !== 'var-positional' && out[0]!.kind !== 'keyword-only') out.shift();
  return out;
}
