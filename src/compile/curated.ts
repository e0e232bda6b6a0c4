/** Loads curated rule data (`rules/curated/*.json`, schema in docs/curated-data.md) into the class registry. */
import { readFileSync } from 'node:fs';
import { describeFsError, jsonErrorWords } from '../parse/files.js';
import { type ClassRegistry, newClassInfo } from '../rules/classes.js';
import type { InitParam, MethodSummary } from '../rules/types.js';

export class CuratedDataError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    message: string,
  ) {
    super(`${file}: field '${field}': ${message}`);
  }
}

interface CuratedClass {
  bases?: string[];
  protocol?: boolean;
  implementations?: string[];
  init?: InitParam[];
  attributes?: Record<string, string>;
  methods?: Record<string, MethodSummary>;
  exportedAs?: string[];
  source?: string;
  note?: string;
}

export function loadCurated(file: string, registry: ClassRegistry): void {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CuratedDataError(file, '(file)', e instanceof SyntaxError ? jsonErrorWords(e, 'curated data (JSON)') : describeFsError(e));
  }
  applyCurated(data, file, registry);
}

export function applyCurated(data: unknown, file: string, registry: ClassRegistry): void {
  if (typeof data !== 'object' || data === null) throw new CuratedDataError(file, '(root)', 'expected an object');
  const d = data as { aliases?: Record<string, string>; classes?: Record<string, CuratedClass> };
  const aliasesOf = new Map<string, string[]>();
  for (const [alias, target] of Object.entries(d.aliases ?? {})) {
    if (typeof target !== 'string') throw new CuratedDataError(file, `aliases.${alias}`, 'expected a qualified class name');
    aliasesOf.set(target, [...(aliasesOf.get(target) ?? []), alias]);
  }
  for (const [key, c] of Object.entries(d.classes ?? {})) {
    if (!key.includes('.')) throw new CuratedDataError(file, `classes.${key}`, 'expected a qualified name (module.Class)');
    for (const [m, s] of Object.entries(c.methods ?? {})) {
      if (!Array.isArray(s.calls)) throw new CuratedDataError(file, `classes.${key}.methods.${m}.calls`, 'expected an array');
      for (const call of s.calls) {
        if (typeof call.on !== 'string' || typeof call.method !== 'string') {
          throw new CuratedDataError(file, `classes.${key}.methods.${m}.calls`, "each call needs 'on' and 'method' strings");
        }
      }
    }
    registry.add(
      newClassInfo(key, {
        aliases: [...(aliasesOf.get(key) ?? []), ...(c.exportedAs ?? [])],
        bases: c.bases ?? [],
        protocol: c.protocol ?? false,
        implementations: c.implementations ?? [],
        init: (c.init ?? []).map((p) => ({ name: p.name, position: p.position ?? null, default: p.default ?? null })),
        attributes: c.attributes ?? {},
        methods: c.methods ?? {},
        source: c.source,
      }),
    );
    aliasesOf.delete(key);
  }
  // Aliases of classes only records define.
  for (const [target, aliases] of aliasesOf) registry.add(newClassInfo(target, { aliases }));
}
