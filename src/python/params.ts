/** A function's parameters → names, annotations and defaults. The one reader of `parameters` nodes. */
import type { Node } from '../parse/parser.js';
import { field, kids } from '../parse/syntax.js';

export interface Parameter {
  name: string;
  node: Node;
  annotation?: Node;
  /** The default value. */
  value?: Node;
  /** `*args` (star), `**kwargs` (kw) or any other (plain). The bare `*` and `/` separators are not parameters. */
  kind: 'plain' | 'star' | 'kw';
  /** Before a bare `/`: passed by position only. After `*` or `*args`: passed by keyword only. */
  only?: 'positional' | 'keyword';
}

/** A parameter with every field set, in one order: one hidden class for all (`only` is set later, in place). */
function param(name: string, node: Node, kind: Parameter['kind'], annotation?: Node, value?: Node): Parameter {
  return { name, node, annotation, value, kind, only: undefined };
}

/** The parameters of a `function_definition` or `lambda`, in order. */
export function parameters(fn: Node): Parameter[] {
  const ps = field(fn, 'parameters');
  const out: Parameter[] = [];
  let keywordOnly = false;
  for (const p of ps ? kids(ps) : []) {
    const type = p.type; // read once: each read is a call into the parser
    const before = out.length;
    if (type === 'positional_separator') for (const q of out) q.only ??= 'positional';
    else if (type === 'keyword_separator') keywordOnly = true;
    else if (type === 'identifier') out.push(param(p.text, p, 'plain'));
    else if (type === 'typed_parameter') {
      const inner = kids(p)[0];
      const innerType = inner?.type;
      const kind = innerType === 'list_splat_pattern' ? 'star' : innerType === 'dictionary_splat_pattern' ? 'kw' : 'plain';
      const name = innerType === 'identifier' ? inner!.text : inner ? (kids(inner)[0]?.text ?? '') : '';
      out.push(param(name, p, kind, field(p, 'type') ?? undefined));
    } else if (type === 'default_parameter' || type === 'typed_default_parameter') {
      out.push(param(field(p, 'name')?.text ?? '', p, 'plain', field(p, 'type') ?? undefined, field(p, 'value') ?? undefined));
    } else if (type === 'list_splat_pattern') out.push(param(kids(p)[0]?.text ?? '', p, 'star'));
    else if (type === 'dictionary_splat_pattern') out.push(param(kids(p)[0]?.text ?? '', p, 'kw'));
    const added = out[before];
    if (added && keywordOnly && added.kind === 'plain') added.only = 'keyword';
    if (added?.kind === 'star') keywordOnly = true;
  }
  return out;
}

/** Names of the parameters a caller passes by name or position (no `*args`/`**kwargs`), without a leading `self`/`cls`. */
export function callableParameterNames(fn: Node): string[] {
  const names = parameters(fn)
    .filter((p) => p.kind === 'plain' && p.name)
    .map((p) => p.name);
  if (names[0] === 'self' || names[0] === 'cls') names.shift();
  return names;
}

/** The first parameter's name (`self`, `cls`), if any. */
export function firstParameterName(fn: Node): string | undefined {
  return parameters(fn)[0]?.name || undefined;
}

/** Keyword parameters by which a caller asks a library to raise rather than return quietly (`check=True`, `strict=True`). */
export const ASKS_FOR_ERROR = new Set(['check', 'strict', 'raise_on_error', 'raise_on_status', 'raise_exceptions', 'raise_errors', 'raise_for_status']);
