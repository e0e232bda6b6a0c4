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
def values(m, q):
    out = {}
    for name in q['names']:
        if '.' in name:
            alias, attr = name.split('.', 1)
            mod = vars(m).get(alias)
            if attr in q['platform'].get(getattr(mod, '__name__', None), []):
                out[name] = simple(getattr(mod, attr, object()))
        elif name in vars(m):
            v = vars(m)[name]
            # A dict of str keys (a registry: shutil's _ARCHIVE_FORMATS): the keys it holds after the import.
            if type(v) is dict and 0 < len(v) <= 200 and all(type(k) is str and len(k) <= 100 for k in v):
                out[name] = {'keys': sorted(v)}
            else:
                out[name] = simple(v)
    return {k: v for k, v in out.items() if v is not None}
`;

function plain(v: unknown): PlainValue | undefined {
  return v === null || typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v)) ? v : undefined;
}

export interface ValueQuery {
  file: string;
  names: string[];
}

/**
 * One run of the interpreter for both questions: for each standard-library module file, the
 * values of the names asked (none for a file outside it, or when the interpreter cannot say), and
 * the public constants of those modules and their packages (see publicConstants).
 */
export function moduleFacts(
  python: string,
  stdlib: string | undefined,
  queries: readonly ValueQuery[],
): { values: Record<string, PlainValue>[]; keys: Record<string, string[]>[]; constants: Record<string, PlainValue> } {
  const asked = queries.map((q) => ({ module: stdlibModule(q.file, stdlib), names: q.names }));
  const packages = new Set<string>();
  for (const a of asked) {
    const parts = a.module?.split('.') ?? [];
    for (let i = 1; i <= parts.length; i++) packages.add(parts.slice(0, i).join('.'));
  }
  // `string`'s documented constants (lower-case, constant all the same: `string.ascii_letters + string.digits`) are asked for with any question.
  if (packages.size) packages.add('string');
  const byModule = new Map<string, string[]>([...packages].sort().map((m) => [m, []]));
  for (const a of asked) if (a.module) byModule.get(a.module)!.push(...a.names);
  const todo = [...byModule];
  const got = todo.length
    ? askPython(
        python,
        `${VALUES}${CONSTANTS}`,
        todo.map(([module, names]) => ({ module, names, platform: PLATFORM })),
        '{}',
      )
    : undefined;
  const rows = new Map(todo.map(([m], i) => [m, got?.[i] as { values?: Record<string, unknown>; constants?: Record<string, unknown> } | undefined]));
  const constants: Record<string, PlainValue> = {};
  for (const [m, row] of rows)
    for (const [name, v] of Object.entries(row?.constants ?? {})) {
      const p = plain(v);
      if (p !== undefined) constants[`${m}:${name}`] = p;
    }
  const keys: Record<string, string[]>[] = [];
  const values = asked.map((a) => {
    const vals: Record<string, PlainValue> = {};
    const dicts: Record<string, string[]> = {};
    keys.push(dicts);
    if (!a.module || !a.names.length) return vals;
    for (const [name, box] of Object.entries(rows.get(a.module)?.values ?? {})) {
      if (!a.names.includes(name)) continue;
      const v = Array.isArray(box) ? plain(box[0]) : undefined;
      if (v !== undefined) vals[name] = v;
      const ks = box && typeof box === 'object' && !Array.isArray(box) ? (box as { keys?: unknown }).keys : undefined;
      if (Array.isArray(ks) && ks.every((k) => typeof k === 'string')) dicts[name] = ks as string[];
    }
    return vals;
  });
  return { values, keys, constants };
}

/** For each standard-library module file, the values of the names asked (./moduleFacts). */
export function moduleValues(python: string, stdlib: string | undefined, queries: readonly ValueQuery[]): Record<string, PlainValue>[] {
  return moduleFacts(python, stdlib, queries).values;
}

const CONSTANTS = String.raw`
DOCUMENTED = {'string': ('ascii_letters', 'ascii_lowercase', 'ascii_uppercase', 'digits', 'hexdigits', 'octdigits', 'punctuation', 'printable', 'whitespace')}
def constants(m):
    out = {}
    documented = DOCUMENTED.get(getattr(m, '__name__', ''), ())
    for name, v in vars(m).items():
        # An IntEnum or IntFlag member (re.IGNORECASE, signal.SIGINT) is no plain int: simple() skips it.
        if (name.isupper() or name in documented) and name[0].isalpha() and len(out) < 2000 and simple(v) is not None:
            out[name] = v
    return out
def answer(q):
    m = load(q['module'])
    if m is None:
        return {}
    return {'values': values(m, q), 'constants': constants(m)}
`;

/**
 * The public constants of standard-library modules as the grounding interpreter has them: the
 * UPPER_CASE names of each module (and of its packages: `asyncio.FIRST_EXCEPTION` for a record of
 * asyncio/tasks.py) bound to a bool, int, str or None, by `module:NAME`. A call passing one
 * (`asyncio.wait(fs, return_when=asyncio.FIRST_EXCEPTION)`, `locale.getlocale(locale.LC_TIME)`) is
 * judged with its value (src/match/bind.ts). UPPER_CASE says a constant; a lower-case module
 * setting (`logging.raiseExceptions`) is data, but for the `string` module's documented constants
 * (`string.ascii_letters`, `string.digits`, ...), asked for with any question.
 */
export function publicConstants(python: string, stdlib: string | undefined, files: readonly string[]): Record<string, PlainValue> {
  return moduleFacts(
    python,
    stdlib,
    files.map((file) => ({ file, names: [] })),
  ).constants;
}
