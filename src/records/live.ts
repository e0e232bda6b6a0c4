/**
 * Which of a module's conditional definitions runs. A def written under a module-level `try:` /
 * `except ImportError:` / `if <flag>:` (locale's emulation of `_locale`, a Windows-only method of
 * subprocess.Popen) is the function a call reaches only when that block runs when the module is
 * imported. The interpreter the records are grounded in (src/workspace/pyenv.ts) imports the
 * module and says whether the name is bound to that def: it is when the name's function has that
 * file and def line. A def that is not the one bound does not raise for its callers, and its record
 * is not compiled (`records check` says why).
 *
 * Only standard-library modules are imported (`-I -S`: never site-packages' or the project's
 * code), never one known to act on import (antigravity, idlelib, tkinter, ...), with a time limit.
 * Whatever cannot be decided (the import fails, a decorator hides the function) keeps the record.
 */
import { execFileSync } from 'node:child_process';
import { relative, sep } from 'node:path';

/** A def written under a module-level block, to be asked about. */
export interface ConditionalDef {
  /** Dotted module name (`locale`, `xml.dom.minidom`). */
  module: string;
  /** Qualified name in the module (`Popen.send_signal`). */
  qualname: string;
  file: string;
  /** 1-based lines: the first decorator's (or the def's) and the def's. */
  from: number;
  to: number;
  /** Decorated by something other than staticmethod / classmethod: a function that is not found is not decided. */
  decorated: boolean;
  /** The block's header, for the message (`except ImportError`). */
  under: string;
}

const indentOf = (l: string) => l.length - l.trimStart().length;
const isCode = (l: string) => l.trim() !== '' && !l.trimStart().startsWith('#');
const DEF = /^(?:async\s+)?def\s+([A-Za-z_]\w*)/;
const CLASS = /^class\s+([A-Za-z_]\w*)/;

/**
 * The def around the raise at `row` (0-based), when it is written under a module-level `if` / `try` /
 * `except` / `else` block (read by indentation): its qualified name and lines. Undefined for a def
 * at the module's top level, a nested function, or a module file outside the standard library.
 */
export function conditionalDef(lines: readonly string[], row: number, file: string, stdlib: string | undefined): ConditionalDef | undefined {
  if (!stdlib || !file.startsWith(stdlib + sep) || /[/\\](site|dist)-packages[/\\]/.test(file)) return undefined;
  let cur = indentOf(lines[row] ?? '');
  const headers: { row: number; text: string }[] = [];
  for (let i = row - 1; i >= 0 && cur > 0; i--) {
    const l = lines[i]!;
    if (!isCode(l) || indentOf(l) >= cur) continue;
    cur = indentOf(l);
    headers.push({ row: i, text: l.trim() });
  }
  const d = headers.findIndex((h) => DEF.test(h.text));
  if (d < 0) return undefined;
  const outer = headers.slice(d + 1);
  // A def nested in another def is not a module's name.
  if (outer.some((h) => DEF.test(h.text))) return undefined;
  const blocks = outer.filter((h) => !CLASS.test(h.text));
  if (!blocks.length || blocks.some((h) => !/^(if|elif|else|try|except|finally)\b/.test(h.text))) return undefined;
  const names = [...outer.filter((h) => CLASS.test(h.text)).map((h) => CLASS.exec(h.text)![1]!)].reverse();
  const def = headers[d]!;
  let first = def.row;
  let decorated = false;
  for (let i = def.row - 1; i >= 0 && lines[i]!.trim().startsWith('@'); i--) {
    first = i;
    if (!/^@(staticmethod|classmethod)\s*$/.test(lines[i]!.trim())) decorated = true;
  }
  const module = stdlibModule(file, stdlib);
  if (!module) return undefined;
  return {
    module,
    qualname: [...names, DEF.exec(def.text)![1]!].join('.'),
    file,
    from: first + 1,
    to: def.row + 1,
    decorated,
    under: blocks[blocks.length - 1]!.text.replace(/:$/, ''),
  };
}

/** The dotted name of a standard-library module file (`xml/dom/minidom.py` → `xml.dom.minidom`); undefined outside the standard library. */
export function stdlibModule(file: string, stdlib: string | undefined): string | undefined {
  if (!stdlib || !file.startsWith(stdlib + sep) || /[/\\](site|dist)-packages[/\\]/.test(file)) return undefined;
  const rel = relative(stdlib, file).replace(/\.py$/, '').split(sep);
  if (rel[rel.length - 1] === '__init__') rel.pop();
  return rel.length && rel.every((p) => /^[A-Za-z_]\w*$/.test(p)) ? rel.join('.') : undefined;
}

/**
 * What every question to the grounding interpreter starts with: `load(module)` imports a
 * standard-library module with a time limit, and gives None for one known to act on import.
 */
const PRELUDE = String.raw`
import importlib, json, os, signal, sys
SIDE_EFFECTS = {'antigravity', 'this', '__hello__', '__phello__', 'idlelib', 'turtledemo', 'turtle', 'tkinter', 'test'}
def late(*_):
    raise TimeoutError()
signal.signal(signal.SIGALRM, late)
def load(module):
    parts = module.split('.')
    if parts[0] in SIDE_EFFECTS or '__main__' in parts:
        return None
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        return importlib.import_module(module)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
`;

/**
 * Runs `body` (after PRELUDE) in the `-I -S` interpreter with `input` as JSON on stdin; `body`
 * answers each item of it with `answer(q)` (`default` when that raises). The answers, or
 * undefined when there is no interpreter, it times out, or it says something else.
 */
export function askPython(python: string, body: string, input: readonly unknown[], fallback: 'None' | '{}'): unknown[] | undefined {
  if (!python || !input.length) return undefined;
  const script = `${PRELUDE}${body}
out = []
for q in json.load(sys.stdin):
    try:
        out.append(answer(q))
    except BaseException:
        out.append(${fallback})
print(json.dumps(out))
`;
  try {
    const out = execFileSync(python, ['-I', '-S', '-c', script], {
      input: JSON.stringify(input),
      encoding: 'utf8',
      timeout: 20_000,
      maxBuffer: 8 << 20,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const v: unknown = JSON.parse(out.trim().split('\n').pop() ?? '');
    return Array.isArray(v) && v.length === input.length ? v : undefined;
  } catch {
    return undefined;
  }
}

const LIVE = String.raw`
def answer(q):
    v = load(q['module'])
    if v is None:
        return None
    for name in q['qualname'].split('.'):
        if name not in vars(v):
            return False
        v = vars(v)[name]
    f = getattr(v, '__func__', v)
    while hasattr(f, '__wrapped__'):
        f = f.__wrapped__
    code = getattr(f, '__code__', None)
    if code is None:
        # Bound to a function or class written in C: the def does not run (unless a decorator hides it).
        return None if q['decorated'] else type(f).__name__ in ('builtin_function_or_method', 'type', 'method_descriptor')
    # A frozen module (os, codecs, ... in 3.11) names itself, not its file; its lines are the file's.
    where = code.co_filename == '<frozen %s>' % q['module'] or os.path.realpath(code.co_filename) == os.path.realpath(q['file'])
    same = where and q['from'] <= code.co_firstlineno <= q['to']
    return True if same else (None if q['decorated'] else False)
`;

/** For each def, whether the module binds its name to it (undefined: not decided: no interpreter, a timeout). One interpreter for all. */
export function liveDefs(python: string, defs: readonly ConditionalDef[]): (boolean | undefined)[] {
  const v = askPython(python, LIVE, defs, 'None');
  return defs.map((_, i) => (typeof v?.[i] === 'boolean' ? (v[i] as boolean) : undefined));
}
