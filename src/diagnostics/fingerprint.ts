/**
 * Semantic fingerprints: what a finding is, not where it is. The key is the rule, the qualified
 * call target (`pkg.mod.Class.method`), and the enclosing function's qualified name
 * (`Class.method`, `<module>`); equal keys in one file are told apart by their order. Reformatting,
 * adding lines or moving a function keeps every fingerprint.
 */
import * as crypto from 'node:crypto';
import type { Node } from '../parse/parser.js';
import type { Finding } from '../match/match.js';
import type { Diagnostic } from './types.js';

/** `Outer.method` for the function (or class body) around a node; `<module>` at top level. */
export function enclosingName(node: Node): string {
  const parts: string[] = [];
  for (let n = node.parent; n; n = n.parent) {
    const type = n.type; // read once: each read is a call into the parser
    if (type === 'function_definition' || type === 'class_definition') parts.unshift(n.childForFieldName('name')?.text ?? '?');
    else if (type === 'lambda') parts.unshift('<lambda>');
  }
  return parts.length ? parts.join('.') : '<module>';
}

/**
 * A function of another project module is named by the index its module's summary has in the
 * thread that read it (`<m3@120>`, semantic/crossfile.ts): that index depends on the order the
 * thread read modules in (the files it was given, `--jobs`), which is not what a finding is.
 */
const PROJECT_FUNCTION = /<m\d+@\d+>/g;
const stable = (name: string) => name.replace(PROJECT_FUNCTION, '<project function>');

/** The qualified target of the call: resolved callee, else receiver class + member, else the call as written. */
export function callTarget(f: Finding): string {
  const s = f.site;
  if (s.callee?.length) return s.callee.map(stable).sort()[0]!;
  const classes = [...new Set((s.receiver ?? []).flatMap((a) => (a.kind === 'inst' || a.kind === 'class' ? [stable(a.key)] : [])))].sort();
  if (classes.length) return `${classes.join('|')}.${s.name}`;
  return `${s.receiverText ?? ''}.${s.name}`;
}

export function fingerprintKey(f: Finding): string {
  return `${f.rule.id}\0${callTarget(f)}\0${enclosingName(f.site.node)}`;
}

/** Sets `fingerprint` on diagnostics (in report order) from their keys: hash(key, index among equal keys). */
export function assignFingerprints(diags: Diagnostic[], keyOf: (d: Diagnostic) => string): void {
  const seen = new Map<string, number>();
  for (const d of diags) {
    const key = keyOf(d);
    const i = seen.get(key) ?? 0;
    seen.set(key, i + 1);
    d.fingerprint = sha256Hex(`${key}\0${i}`).slice(0, 20);
  }
}

/** One-shot `crypto.hash` (Node >= 20.12: no Hash object per fingerprint), else a Hash. The same digest. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
function sha256Hex(s: string): string {
  return oneShot ? oneShot('sha256', s, 'hex') : crypto.createHash('sha256').update(s).digest('hex');
}
