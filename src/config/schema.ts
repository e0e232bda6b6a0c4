/**
 * The `[tool.raiselint]` table (pyproject.toml) or the top level of raiselint.toml: parsed with
 * smol-toml and validated key by key. Every problem is a ConfigError naming the file, the line
 * (when it can be found) and the key.
 */
import { describeFsError, FileReadError, readRegularText } from '../parse/files.js';

const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
/** A rule pattern or glob longer than this is not one (and would cost a huge regular expression). */
const MAX_PATTERN = 1024;
/** Wildcards in one pattern: glob matching backtracks over each. */
const MAX_WILDCARDS = 32;
import { dirname, relative, isAbsolute } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { Confidence, Severity } from '../rules/types.js';
import { editDistance } from '../rules/lookup.js';

/** Fix strategies `--fix` understands (validated here; the fix stage applies them): as its `--fix-strategy` choices. */
export const FIX_STRATEGIES = ['auto', 'try-except', 'type-guard'] as const;
export type FixStrategy = (typeof FIX_STRATEGIES)[number];

export const CONFIDENCES: readonly Confidence[] = ['certain', 'possible'];
export const SEVERITIES: readonly Severity[] = ['error', 'warning'];

/** Every key the table accepts, in documentation order. */
export const CONFIG_KEYS = [
  'root',
  'records',
  'select',
  'ignore',
  'severity',
  'per-file-ignores',
  'exclude',
  'extend-exclude',
  'extend-include',
  'min-confidence',
  'fix-strategy',
  'target-version',
  'derive',
] as const;

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly key: string | undefined,
    message: string,
  ) {
    super(message);
  }
  describe(cwd = process.cwd()): string {
    // No file: the command line (`--select`), named by its option.
    if (!this.file) return `${this.key ? `${this.key}: ` : ''}${this.message}`;
    const rel = relative(cwd, this.file);
    const shown = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : this.file;
    return `${shown}${this.line ? `:${this.line}` : ''}: ${this.key ? `key '${this.key}': ` : ''}${this.message}`;
  }
}

/** One config file's own settings (not merged with its parents). Paths are as written. */
export interface ConfigFile {
  file: string;
  /** The folder paths and globs are relative to. */
  dir: string;
  /** `pyproject.toml` ([tool.raiselint]) or `raiselint.toml` (top level). */
  kind: 'pyproject' | 'raiselint';
  /** The file's text (for error lines). */
  text: string;
  root: boolean;
  records?: string[];
  select?: string[];
  ignore?: string[];
  /** Rule pattern → severity, in file order. */
  severity?: [string, Severity][];
  /** File glob → rule patterns, in file order. */
  perFileIgnores?: [string, string[]][];
  exclude?: string[];
  extendExclude?: string[];
  /** Globs (gitignore syntax) of more files to check as Python, besides .py, .pyi and .ipynb (Ruff's `extend-include`). */
  extendInclude?: string[];
  minConfidence?: Confidence;
  fixStrategy?: FixStrategy;
  /** Records derived from the installed modules the checked files import: off, their certain findings, all. */
  derive?: 'off' | 'certain' | 'all';
  /** The Python version checked for (`py311`), as Ruff's `target-version`. */
  targetVersion?: string;
}

/** The keys whose value is an array of strings (paths, rule patterns, globs), and the field each sets. */
const STRING_LISTS = {
  records: 'records',
  select: 'select',
  ignore: 'ignore',
  exclude: 'exclude',
  'extend-exclude': 'extendExclude',
  'extend-include': 'extendInclude',
} as const satisfies Partial<Record<(typeof CONFIG_KEYS)[number], keyof ConfigFile>>;

/** Reads a config file. Returns undefined for a pyproject.toml without `[tool.raiselint]`. */
export function readConfigFile(file: string): ConfigFile | undefined {
  let text: string;
  try {
    text = readRegularText(file, MAX_CONFIG_BYTES);
  } catch (e) {
    throw new ConfigError(file, undefined, undefined, `cannot read config file: ${e instanceof FileReadError ? e.message : describeFsError(e)}`);
  }
  return parseConfigText(text, file);
}

export function parseConfigText(text: string, file: string): ConfigFile | undefined {
  const kind = /(^|[\\/])pyproject\.toml$/.test(file) ? 'pyproject' : 'raiselint';
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    // Another tool's pyproject.toml (a cookiecutter template with `{{...}}` keys) that never mentions raiselint is not ours to reject.
    if (kind === 'pyproject' && !text.includes('raiselint')) return undefined;
    if (e instanceof TomlError) throw new ConfigError(file, e.line, undefined, `invalid TOML: ${e.message.split('\n')[0]}`);
    throw new ConfigError(file, undefined, undefined, `invalid TOML: ${(e as Error).message}`);
  }
  let table: unknown = doc;
  if (kind === 'pyproject') {
    const tool = doc.tool;
    if (!isTable(tool) || !('raiselint' in tool)) return undefined;
    table = tool.raiselint;
    if (!isTable(table)) throw new ConfigError(file, findLine(text, 'raiselint', kind), 'tool.raiselint', 'must be a table');
  }
  return validate(table as Record<string, unknown>, text, file, kind);
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function validate(t: Record<string, unknown>, text: string, file: string, kind: ConfigFile['kind']): ConfigFile {
  const cfg: ConfigFile = { file, dir: dirname(file), kind, text, root: false };
  const err = (key: string, message: string): never => {
    throw new ConfigError(file, findLine(text, key.split('.').pop()!, kind), kind === 'pyproject' ? `tool.raiselint.${key}` : key, message);
  };
  const strings = (key: string, v: unknown): string[] => {
    if (!Array.isArray(v)) return err(key, `must be an array of strings, not ${describe(v)}`);
    v.forEach((s, i) => {
      if (typeof s !== 'string') err(key, `item ${i + 1} must be a string, not ${describe(s)}`);
      else if (!s.trim()) err(key, `item ${i + 1} is empty`);
      else if (s.length > MAX_PATTERN) err(key, `item ${i + 1} is longer than ${MAX_PATTERN} characters (${s.length})`);
      else if ((s.match(/[*?]/g)?.length ?? 0) > MAX_WILDCARDS) err(key, `item ${i + 1} has more than ${MAX_WILDCARDS} wildcards`);
    });
    return v as string[];
  };
  const oneOf = <T extends string>(key: string, v: unknown, allowed: readonly T[]): T => {
    if (typeof v !== 'string' || !allowed.includes(v as T)) return err(key, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, not ${describe(v)}`);
    return v as T;
  };
  /** A table whose keys are patterns or globs (`what`: its shape, for the error; `keyName`: what a key is). */
  const patternTable = (key: string, v: unknown, what: string, keyName: string): [string, unknown][] => {
    if (!isTable(v)) return err(key, `must be a table of ${what}, not ${describe(v)}`);
    for (const p of Object.keys(v)) if (p.length > MAX_PATTERN) err(key, `a ${keyName} is longer than ${MAX_PATTERN} characters (${p.length})`);
    return Object.entries(v);
  };
  for (const [key, v] of Object.entries(t)) {
    if (Object.hasOwn(STRING_LISTS, key)) {
      cfg[STRING_LISTS[key as keyof typeof STRING_LISTS]] = strings(key, v);
      continue;
    }
    switch (key) {
      case 'root':
        if (typeof v !== 'boolean') err(key, `must be true or false, not ${describe(v)}`);
        cfg.root = v as boolean;
        break;
      case 'severity':
        cfg.severity = patternTable(key, v, 'rule pattern = "error" | "warning"', 'rule pattern').map(([p, s]) => [p, oneOf(`severity.${p}`, s, SEVERITIES)]);
        break;
      case 'per-file-ignores':
        cfg.perFileIgnores = patternTable(key, v, 'file glob = [rule patterns]', 'file glob').map(([g, rules]) => [g, strings(`per-file-ignores.${g}`, rules)]);
        break;
      case 'min-confidence':
        cfg.minConfidence = oneOf(key, v, CONFIDENCES);
        break;
      case 'derive':
        cfg.derive = oneOf(key, v, ['off', 'certain', 'all'] as const);
        break;
      case 'fix-strategy':
        cfg.fixStrategy = oneOf(key, v, FIX_STRATEGIES);
        break;
      case 'target-version':
        if (typeof v !== 'string' || !/^(py)?\d\.?\d+$/.test(v)) err(key, `must be a Python version such as "py311" or "3.11", not ${describe(v)}`);
        cfg.targetVersion = v as string;
        break;
      default: {
        const hint = suggest(key);
        err(key, `unknown key${hint ? ` (did you mean '${hint}'?)` : ''}; known keys: ${CONFIG_KEYS.join(', ')}`);
      }
    }
  }
  return cfg;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (isTable(v)) return 'a table';
  if (v instanceof Date) return 'a date';
  return typeof v === 'string' ? JSON.stringify(v) : `${typeof v} ${String(v)}`;
}

/** The closest known key by edit distance (at most 3 edits), or the snake_case spelling's kebab form. */
function suggest(key: string): string | undefined {
  const kebab = key.replace(/_/g, '-').toLowerCase();
  if ((CONFIG_KEYS as readonly string[]).includes(kebab)) return kebab;
  let best: string | undefined;
  let bestD = 4;
  for (const k of CONFIG_KEYS) {
    const d = editDistance(key, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}

/**
 * Best-effort 1-based line of a key: the first line after the raiselint table header (or the
 * file start for raiselint.toml) that assigns it (`key =`, `"key" =`) or opens it as a table.
 */
export function findLine(text: string, key: string, kind: ConfigFile['kind']): number | undefined {
  const lines = text.split(/\r?\n/);
  let start = 0;
  if (kind === 'pyproject') {
    const h = lines.findIndex((l) => /^\s*\[\s*tool\s*\.\s*raiselint\b/.test(l) || /^\s*tool\s*\.\s*raiselint\s*[.=]/.test(l));
    if (h < 0) return undefined;
    if (key === 'raiselint') return h + 1;
    start = h;
  }
  if (key.length > MAX_PATTERN) return undefined;
  const k = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^\\s*(?:\\[\\s*)?(?:[\\w."-]*\\.)?(?:${k}|"${k}"|'${k}')\\s*(?:=|\\])`);
  for (let i = start; i < lines.length; i++) if (re.test(lines[i]!)) return i + 1;
  // A value inside an inline table or array (severity."x" = ..., per-file-ignores entries)
  for (let i = start; i < lines.length; i++) if (lines[i]!.includes(`"${key}"`) || lines[i]!.includes(`'${key}'`)) return i + 1;
  return undefined;
}
