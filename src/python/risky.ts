/**
 * Record code is third-party data: what in a snippet can run arbitrary code or reach the system
 * (processes, files, the network, code loading, an object's way out to every class). The compiler
 * lists it on each alternative (`Alternative.risky`), `records check` warns about it, and the fix
 * planner shows such a fix only, unless the user's statement already does the same.
 */
import type { Node } from '../parse/parser.js';
import { field, namedChildren } from '../parse/syntax.js';

/** Builtins that run code or reach past the program's own names. */
const RISKY_NAMES = new Set([
  '__import__',
  'eval',
  'exec',
  'compile',
  'globals',
  'locals',
  'vars',
  'breakpoint',
  'input',
  'open',
  'exit',
  'quit',
  '__builtins__',
  '__loader__',
  '__spec__',
]);
/** Builtins whose second argument names an attribute: risky when that name is computed. */
const ATTR_BUILTINS = new Set(['getattr', 'setattr', 'delattr', 'hasattr']);
/** Attributes that lead out of an object to code, frames or every class. */
const RISKY_ATTRS = new Set([
  '__globals__',
  '__subclasses__',
  '__code__',
  '__builtins__',
  '__getattribute__',
  '__reduce__',
  '__reduce_ex__',
  '__import__',
  '__bases__',
  '__mro__',
  '__closure__',
  'f_globals',
  'f_locals',
  'gi_frame',
  'tb_frame',
]);
/** Modules and calls that reach the system: processes, files, the network, code loading. */
export const RISKY_CALLS =
  /^(os\.(system|popen|exec\w*|spawn\w*|fork\w*|kill\w*|remove|unlink|rmdir|removedirs|rename|replace|chmod|chown|truncate|putenv|unsetenv)|subprocess\.\w+|shutil\.\w+|pty\.\w+|socket\.\w+|ctypes\.\w+|importlib\.\w+|runpy\.\w+|pickle\.loads?|marshal\.loads?|shelve\.open|urllib\.request\.\w+|http\.client\.\w+|ftplib\.\w+|smtplib\.\w+|webbrowser\.\w+|code\.\w+|pdb\.\w+|sys\.(exit|settrace|setprofile|modules)|builtins\.\w+)$/;

/**
 * What in the alternative's statements can run arbitrary code or reach the system, each once,
 * as it is written (`__import__`, `os.system()`, `getattr() with a computed name`).
 */
export function riskyIn(stmts: Node[]): string[] {
  const out = new Set<string>();
  for (const s of stmts) {
    for (const n of [s, ...s.descendantsOfType(['identifier', 'attribute', 'call'])]) {
      if (!n) continue;
      if (n.type === 'identifier') {
        const p = n.parent;
        const isAttr = p?.type === 'attribute' && field(p, 'attribute')?.id === n.id;
        const isKeyword = p?.type === 'keyword_argument' && field(p, 'name')?.id === n.id;
        if (isAttr) {
          if (RISKY_ATTRS.has(n.text)) out.add(`.${n.text}`);
        } else if (!isKeyword && RISKY_NAMES.has(n.text)) out.add(n.text);
      } else if (n.type === 'attribute') {
        const dotted = n.text.replace(/\s+/g, '');
        if (RISKY_CALLS.test(dotted)) out.add(dotted);
      } else if (n.type === 'call') {
        const fn = field(n, 'function');
        if (fn?.type !== 'identifier' || !ATTR_BUILTINS.has(fn.text)) continue;
        const args = field(n, 'arguments');
        const second = args ? namedChildren(args)[1] : undefined;
        if (!second || second.type !== 'string' || second.descendantsOfType('interpolation').some((x) => !!x)) out.add(`${fn.text}() with a computed name`);
      }
    }
  }
  return [...out];
}

/** Top-level modules whose every name reaches the system or loads code. */
const RISKY_MODULES = /^(subprocess|shutil|pty|socket|ctypes|importlib|runpy|pickle|marshal|shelve|builtins|code|pdb|webbrowser)(\.|$)/;

/** An import a fix would add (`os.system`, `subprocess`, `builtins.eval`) that reaches the system or runs code. */
export function riskyImport(qualified: string): boolean {
  if (RISKY_MODULES.test(qualified) || RISKY_CALLS.test(qualified)) return true;
  const m = /^builtins\.(\w+)$/.exec(qualified);
  return !!m && RISKY_NAMES.has(m[1]!);
}
