/** Small helpers of cross-file answers (./crossfile.ts): a symbolic reference's tail, instances, a class copied into another file. */
import type { ClassInfo } from '../rules/types.js';
import { UNKNOWN, instAtom, type Type } from './types.js';

/** Tokens of a symbolic reference (`()` a call, a name an attribute) written back. */
export function joinTokens(tokens: string[]): string {
  return tokens.map((t) => (t === '()' ? t : `.${t}`)).join('');
}

/** The instances a class-valued type creates (other values are unknown). */
export function instancesOf(t: Type): Type {
  return t.map((a) => (a.kind === 'class' ? instAtom(a.key) : a.kind === 'inst' ? a : UNKNOWN[0]!));
}

/** A project class's info as another file's registry holds it (its own aliases are not that file's). */
export function copyInfo(info: ClassInfo, bases: string[]): ClassInfo {
  return { ...info, bases, aliases: [], init: [...info.init], ownMethods: info.ownMethods ? new Set(info.ownMethods) : undefined };
}
