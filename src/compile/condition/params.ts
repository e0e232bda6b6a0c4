/** A `def`'s parameters as a caller binds them (kinds from `/`, `*`, `*args`, `**kw`; literal defaults), over src/python/params.ts. */
import type { Node } from '../../parse/parser.js';
import { parameters } from '../../python/params.js';
import { literalOf } from '../../rules/condition/literal.js';
import type { ParamKind, ParamSpec, PyVal } from '../../rules/condition/types.js';

/** The parameters of `def` in order; `dropFirst` removes `self` / `cls`. */
export function readParams(def: Node, constant: (name: string) => PyVal | undefined, dropFirst: boolean): ParamSpec[] {
  const out: ParamSpec[] = [];
  for (const p of parameters(def)) {
    if (!p.name) continue;
    const kind: ParamKind =
      p.kind === 'star'
        ? 'var-positional'
        : p.kind === 'kw'
          ? 'var-keyword'
          : p.only === 'positional'
            ? 'positional-only'
            : p.only === 'keyword'
              ? 'keyword-only'
              : 'normal';
    const spec: ParamSpec = { name: p.name, kind };
    if (p.value) {
      const lit = literalOf(p.value, constant);
      spec.default = lit ?? 'expr';
      if (!lit) spec.defaultText = p.value.text;
    }
    out.push(spec);
  }
  if (dropFirst && out.length && (out[0]!.kind === 'normal' || out[0]!.kind === 'positional-only')) out.shift();
  return out;
}
