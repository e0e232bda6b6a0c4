/** Qualified-name matching: a symbol defined in `a.b._c` is also reachable as `a.b.X` and `a.X`. */
import type { RuleTarget, SymbolRef } from './types.js';

export function ancestorsOrSelf(module: string): string[] {
  const parts = module.split('.');
  const out: string[] = [];
  for (let i = parts.length; i >= 1; i--) out.push(parts.slice(0, i).join('.'));
  return out;
}

export function symbolMatches(sym: SymbolRef, qname: string): boolean {
  if (sym.aliases.includes(qname)) return true;
  if (!qname.endsWith(`.${sym.path}`)) return false;
  const mod = qname.slice(0, qname.length - sym.path.length - 1);
  return mod === sym.module || sym.module.startsWith(`${mod}.`);
}

export function splitQualified(q: string): { module: string; name: string } {
  const i = q.lastIndexOf('.');
  return i < 0 ? { module: '', name: q } : { module: q.slice(0, i), name: q.slice(i + 1) };
}

/** `python/packages/x-y/src/pkg/sub/_mod.py` → candidates for the module path, best first. */
export function moduleFromFilePath(filePath: string, knownPrefixes: string[] = []): string {
  const noExt = filePath.replace(/\\/g, '/').replace(/\.pyi?$/, '');
  let parts = noExt.split('/').filter(Boolean);
  if (parts[parts.length - 1] === '__init__') parts = parts.slice(0, -1);
  // Anchor on a module the record's own snippets import (most reliable).
  for (const pre of knownPrefixes) {
    const head = pre.split('.')[0]!;
    const i = parts.lastIndexOf(head);
    if (i >= 0) return parts.slice(i).join('.');
  }
  // Otherwise the longest suffix of identifier segments, without layout folders.
  let start = parts.length;
  while (start > 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(parts[start - 1]!)) start--;
  parts = parts.slice(start);
  while (parts.length > 1 && ['src', 'lib', 'python', 'packages', 'Lib'].includes(parts[0]!)) parts = parts.slice(1);
  return parts.join('.');
}

/** The name a target is filed under: the method name, or the last part of the symbol's path (`loads`, `Klass`). */
export function triggerKey(t: RuleTarget): string {
  if (t.kind === 'method') return t.method;
  const p = t.symbol.path;
  return p.slice(p.lastIndexOf('.') + 1);
}

/** A target as messages and listings show it: `zipfile.ZipFile.open()`, `Popen.wait()`. */
export function describeTarget(t: RuleTarget): string {
  if (t.kind === 'method') return `${t.classKey}.${t.method}()`;
  return `${t.symbol.module}.${t.symbol.path}${t.what === 'attribute' ? '' : '()'}`;
}
