/**
 * What a standard-library module's platform names hold in the interpreter the records are grounded
 * in (src/workspace/pyenv.ts): a module-level name assigned from an expression (`_mswindows =
 * (sys.platform == "win32")`, `_use_fd_functions = ...`) and the platform attributes it reads
 * through its imports (`os.sep`, `os.name`, `sys.platform`). A condition that tests them (`if
 * os.sep == '/': return pathname` in distutils' convert_path) is decided as this Python runs it.
 * Only bool, int, str and None values; asked of the same `-I -S` interpreter as ./live.ts, with its
 * module list and time limit. The compiler uses only private or UPPER_CASE names that no function
 * of the module rebinds (src/compile/condition/compile.ts).
 */
import type { PlainValue } from './types.js';
import { askPython, stdlibModule } from './live.js';

/** Attributes of os and sys that say the platform (never state a program changes). */
const PLATFORM: Record<string, string[]> = {
  os: ['sep', 'altsep', 'name', 'pathsep', 'linesep', 'extsep', 'curdir', 'pardir', 'devnull'],
  sys: ['platform', 'byteorder', 'maxsize'],
};

const ASSIGNED = /^([A-Za-z_]\w*)\s*=\s*(?![=\s]*$)(.*)$/;
const IMPORT = /^import\s+(os|sys)(?:\s+as\s+(\w+))?\s*$/;

/** A module's names worth asking about: those assigned at its top level or in a module-level block (`try:` / `if`), and `alias.attr` of the platform attributes. */
export function askedNames(lines: readonly string[]): string[] {
  const out = new Set<string>();
  let top = '';
  for (const l of lines) {
    if (/^[^\s#]/.test(l)) top = l;
    const inBlock = /^(if|elif|else|try|except|finally)\b/.test(top);
    const m = l === top || inBlock ? ASSIGNED.exec(l.trimStart()) : null;
    if (m) out.add(m[1]!);
    const i = IMPORT.exec(l);
    if (i) for (const a of PLATFORM[i[1]!]!) out.add(`${i[2] ?? i[1]}.${a}`);
  }
  return [...out].slice(0, 400);
}

const VALUES = String.raw`
def simple(v):
    if v is None or type(v) in (bool, int) or (type(v) is str and len(v) <= 200):
        return [v]
    return None
def answer(q):
    m = load(q['module'])
    if m is None:
        return {}
    out = {}
    for name in q['names']:
        if '.' in name:
            alias, attr = name.split('.', 1)
            mod = vars(m).get(alias)
            if attr in q['platform'].get(getattr(mod, '__name__', None), []):
                out[name] = simple(getattr(mod, attr, object()))
        elif name in vars(m):
            out[name] = simple(vars(m)[name])
    return {k: v for k, v in out.items() if v is not None}
`;

function plain(v: unknown): PlainValue | undefined {
  return v === null || typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v)) ? v : undefined;
}

export interface ValueQuery {
  file: string;
  names: string[];
}

/** For each standard-library module file, the values of the names asked (none for a file outside it, or when the interpreter cannot say). */
export function moduleValues(python: string, stdlib: string | undefined, queries: readonly ValueQuery[]): Record<string, PlainValue>[] {
  const asked = queries.map((q) => ({ module: stdlibModule(q.file, stdlib), names: q.names }));
  const todo = asked.filter((a): a is { module: string; names: string[] } => !!a.module && a.names.length > 0);
  const got = askPython(
    python,
    VALUES,
    todo.map((t) => ({ ...t, platform: PLATFORM })),
    '{}',
  );
  let k = 0;
  return asked.map((a) => {
    if (!a.module || !a.names.length) return {};
    const row = got?.[k++] as Record<string, [unknown]> | undefined;
    const vals: Record<string, PlainValue> = {};
    for (const [name, box] of Object.entries(row ?? {})) {
      const v = Array.isArray(box) ? plain(box[0]) : undefined;
      if (v !== undefined) vals[name] = v;
    }
    return vals;
  });
}
