/**
 * The analysis stage: literal calls run. A possible finding of a pure standard-library function or
 * class called with literal arguments only (`ipaddress.ip_interface('10.0.0.1/24')`,
 * `gettext.c2py('n != 1')`) raises on every run or on none, whatever the program does: the
 * interpreter the rules were grounded in (src/workspace/pyenv.ts) runs the call and says which.
 * No error: not reported. The recorded error, from the recorded raise (its line, or a message its
 * pattern matches): certain. Another error: not this record's finding.
 *
 * Only the modules and names below run (no I/O, no process or interpreter state); the interpreter
 * runs isolated (`-I -S`: the standard library alone, never the project's or site-packages' code),
 * arguments are read by `ast.literal_eval` or, for a name of an imported module
 * (`inspect.Parameter.KEYWORD_ONLY`: src/match/refs.ts), looked up through modules and classes
 * only, to a constant (a number, a string, a class, an enum member: not `sys.argv`; no property
 * runs; no module known to act on import is imported, by an argument or by the call: such a run decides nothing), each
 * call has a second and the batch ten, memory is capped; one interpreter serves the thread's run (./pyserver.ts). A class of the checked file, or an instance of it, is passed as a stand-in
 * (src/match/standin.ts): no code of the file runs, and a run that reaches what a stand-in stands
 * for (a method called, a property read) decides nothing. Whatever fails (no interpreter, a
 * timeout, an argument that is no literal) leaves the finding as it was.
 */
import type { Node } from '../parse/parser.js';
import { Scopes } from '../semantic/scopes.js';
import type { Finding } from '../match/match.js';
import { literalArguments, receiverText, type LiteralArgs } from '../match/literalargs.js';
import type { RulePython } from '../rules/ruleset.js';
import type { Rule } from '../rules/types.js';
import { classMatches } from '../rules/lookup.js';
import { compileMessagePattern } from '../records/pattern.js';
import { SCRIPT } from './probescript.js';
import { askPython } from './pyserver.js';

/**
 * A call of `module`'s `path` (a function or a class) with literal arguments (Python source); or,
 * with `receiver` (a `call:` of a pure class or function), of the method `path` of what it returns.
 */
export interface Probe extends LiteralArgs {
  module: string;
  path: string;
  receiver?: string;
}

/**
 * Pure callables by module, written in Python (a record's raise is a line of Lib/): their result
 * depends on their arguments alone (`*`: every public name).
 */
const CONFIG_METHODS = ['read_string', 'read_dict', 'get', 'getint', 'getfloat', 'getboolean', 'has_section', 'has_option', 'sections', 'options', 'items'];
const PURE: Record<string, string[]> = {
  ipaddress: ['*'],
  base64: ['*'],
  colorsys: ['*'],
  array: ['array'],
  operator: ['length_hint', 'index', 'itemgetter', 'attrgetter'],
  itertools: ['repeat', 'count', 'chain', 'islice', 'cycle', 'product', 'permutations', 'combinations', 'accumulate', 'pairwise'],
  fractions: ['Fraction'],
  uuid: ['UUID'],
  json: ['loads', 'dumps'],
  collections: ['namedtuple'],
  gettext: ['c2py'],
  getopt: ['getopt', 'gnu_getopt', 'do_longs', 'do_shorts', 'long_has_args', 'short_has_arg'],
  tarfile: ['nti', 'itn', 'stn', 'nts'],
  shlex: ['split', 'quote', 'join'],
  struct: ['pack', 'unpack', 'calcsize', 'unpack_from', 'iter_unpack', 'Struct'],
  textwrap: ['wrap', 'fill', 'dedent', 'indent', 'shorten'],
  html: ['escape', 'unescape'],
  string: ['capwords'],
  fnmatch: ['translate', 'fnmatchcase'],
  posixpath: ['join', 'normpath', 'split', 'splitext', 'basename', 'dirname', 'commonpath', 'commonprefix', 'isabs', 'normcase'],
  ntpath: ['join', 'normpath', 'split', 'splitext', 'basename', 'dirname', 'commonpath', 'commonprefix', 'isabs', 'normcase', 'splitdrive'],
  'urllib.parse': [
    'urlparse',
    'urlsplit',
    'urlunparse',
    'urlunsplit',
    'parse_qs',
    'parse_qsl',
    'quote',
    'unquote',
    'quote_plus',
    'unquote_plus',
    'urlencode',
    'urljoin',
    'urldefrag',
    'quote_from_bytes',
    'unquote_to_bytes',
  ],
  codecs: ['lookup', 'getencoder', 'getdecoder', 'getincrementalencoder', 'getincrementaldecoder', 'getreader', 'getwriter', 'encode', 'decode'],
  datetime: [
    'date',
    'time',
    'datetime',
    'timedelta',
    'timezone',
    'date.fromisoformat',
    'datetime.fromisoformat',
    'time.fromisoformat',
    'date.fromordinal',
    'datetime.fromordinal',
    'date.fromisocalendar',
    'datetime.fromisocalendar',
  ],
  // Reads the fields of a dataclass (or finds none), copying their values.
  dataclasses: ['asdict', 'astuple', 'fields', 'replace', 'is_dataclass'],
  'email.charset': ['Charset'],
  'email.utils': [
    'parseaddr',
    'formataddr',
    'parsedate',
    'parsedate_tz',
    'parsedate_to_datetime',
    'getaddresses',
    'quote',
    'unquote',
    'collapse_rfc2231_value',
    'decode_rfc2231',
    'encode_rfc2231',
  ],
  'email.header': ['decode_header', 'Header'],
  statistics: [
    'mean',
    'fmean',
    'geometric_mean',
    'harmonic_mean',
    'median',
    'median_low',
    'median_high',
    'median_grouped',
    'mode',
    'multimode',
    'quantiles',
    'pstdev',
    'pvariance',
    'stdev',
    'variance',
    'covariance',
    'correlation',
    'linear_regression',
    'NormalDist',
  ],
  calendar: ['monthrange', 'weekday', 'isleap', 'leapdays', 'monthcalendar'],
  ast: ['literal_eval', 'parse'],
  tomllib: ['loads'],
  plistlib: ['loads', 'dumps'],
  difflib: [
    'get_close_matches',
    'Differ',
    'SequenceMatcher',
    'ndiff',
    'unified_diff',
    'context_diff',
    'diff_bytes',
    'restore',
    'IS_LINE_JUNK',
    'IS_CHARACTER_JUNK',
  ],
  nturl2path: ['pathname2url', 'url2pathname'],
  // Reads os.environ when env is not passed, whose str keys never hold b'PATH' (its raise needs both keys).
  os: ['get_exec_path'],
  inspect: ['Parameter', 'Signature', 'getattr_static'],
  'http.cookies': ['Morsel', 'SimpleCookie', 'BaseCookie'],
  'email.headerregistry': ['Address', 'Group'],
  // The module's hidden generator: each checks its arguments before it draws (what it draws never decides a raise of theirs).
  random: ['randrange', 'randint', 'choice', 'choices', 'sample', 'gammavariate', 'getrandbits', 'seed'],
  // Made empty (no file read); of their methods only those that read no file run (CONFIG_METHODS), on an object fresh from a literal call.
  configparser: ['RawConfigParser', 'ConfigParser', ...['RawConfigParser', 'ConfigParser'].flatMap((c) => CONFIG_METHODS.map((m) => `${c}.${m}`))],
  // Imports the parser modules its list names, as the program would (the runner refuses those that act on import).
  'xml.sax': ['make_parser'],
};

interface Outcome {
  ok?: true;
  exc?: string[];
  msg?: string;
  frame?: [string, number] | null;
  skip?: string;
}

/** Outcomes by probe, per interpreter and process: a call is run once per run (and language-server session). */
const memo = new Map<string, Map<string, Outcome | undefined>>();
const MAX_MEMO = 20_000;

const keyOf = (p: Probe) => JSON.stringify([p.module, p.path, p.args, p.kwargs, ...(p.receiver ? [p.receiver] : [])]);

/** `module:path`, or a submodule and the rest of the path (`from http import cookies` names `http:cookies.Morsel`), on the list. */
function pure(p: { module: string; path: string }): boolean {
  for (let { module, path } = p, dot = path.indexOf('.'); ; dot = path.indexOf('.')) {
    const allowed = PURE[module];
    if (allowed && (allowed.includes(path) || (allowed.includes('*') && !path.startsWith('_') && !path.includes('.')))) return true;
    if (dot < 0) return false;
    module = `${module}.${path.slice(0, dot)}`;
    path = path.slice(dot + 1);
  }
}

const scopesByTree = new WeakMap<object, Scopes>();

/** The scopes of the call's file (made once per tree), for its arguments that are locals. */
function scopesOf(n: Node): Scopes {
  let s = scopesByTree.get(n.tree);
  if (!s) scopesByTree.set(n.tree, (s = new Scopes(n.tree.rootNode)));
  return s;
}

/** What running a finding's call would decide: a possible finding of a pure callee whose arguments are all literals. */
function probeOf(f: Finding): Probe | undefined {
  if (f.confidence !== 'possible') return undefined;
  if (f.receiverCall && !f.site.name.startsWith('_')) {
    // A public method of a pure class's instance (the runner checks the class of what the call made).
    const receiver = receiverText(f.receiverCall, scopesOf(f.receiverCall));
    const made = receiver && (JSON.parse(receiver.slice(5)) as { f: string }).f.split(':');
    if (!made || !pure({ module: made[0]!, path: made[1]! })) return undefined;
    const literal = literalArguments(f.site.node, scopesOf(f.site.node));
    return literal && { module: '', path: f.site.name, receiver, ...literal };
  }
  if (!f.callee || !pure(f.callee)) return undefined;
  const literal = literalArguments(f.site.node, scopesOf(f.site.node));
  return literal && { ...f.callee, ...literal };
}

/** Runs the probes not run yet, in one interpreter; a failure leaves them unknown (exported for tests: the interpreter's own checks). */
export function runAll(python: RulePython, probes: Probe[]): Map<string, Outcome | undefined> {
  let done = memo.get(python.executable);
  if (!done || done.size > MAX_MEMO) memo.set(python.executable, (done = new Map()));
  const todo = [...new Map(probes.filter((p) => !done!.has(keyOf(p))).map((p) => [keyOf(p), p])).values()];
  if (!todo.length) return done;
  let outcomes: Outcome[] = [];
  try {
    const input = JSON.stringify(todo.map((p) => ({ m: p.module, p: p.path, a: p.args, k: p.kwargs, ...(p.receiver ? { r: p.receiver } : {}) })));
    const out = askPython(python.executable, ['-I', '-S', '-c', SCRIPT, JSON.stringify(PURE)], input, 10_000);
    const parsed: unknown = out === undefined ? undefined : JSON.parse(out);
    if (Array.isArray(parsed) && parsed.length === todo.length) outcomes = parsed as Outcome[];
  } catch {
    // No interpreter, a timeout, a crash: nothing is decided.
  }
  todo.forEach((p, i) => done!.set(keyOf(p), outcomes[i]));
  return done;
}

/** The raise that ran is the record's: its line (a raise statement may span a few), or a message its pattern matches. */
function sameRaise(rule: Rule, o: Outcome): boolean {
  const file = `/${rule.raiser.module.replace(/\./g, '/')}`;
  const [path, line] = o.frame ?? ['', 0];
  // Raised in the record's file: its line decides (another raise of the file is another record's, whatever its message).
  if (path.endsWith(`${file}.py`) || path.endsWith(`${file}/__init__.py`)) return line >= rule.raiser.line && line <= rule.raiser.line + 8;
  const pattern = rule.record.messagePattern;
  if (typeof pattern !== 'string' || !pattern || pattern.length > 500 || o.msg === undefined) return false;
  // The message starts with what the pattern matches; a linear-time engine (the pattern is a record's: untrusted).
  const re = compileMessagePattern(`^(?:${pattern})`);
  return typeof re !== 'string' && re.test(o.msg);
}

/** An argument as Python writes it (`builtins:int` is `int`, `ref:inspect:Parameter.KEYWORD_ONLY` is `inspect.Parameter.KEYWORD_ONLY`, a `call:` its call). */
function argText(a: string): string {
  if (a.startsWith('call:')) {
    const c = JSON.parse(a.slice(5)) as { f: string; a: string[]; k: [string, string][] };
    return `${c.f.replace(/^builtins:/, '').replace(':', '.')}(${argList(c.a, c.k)})`;
  }
  if (a.startsWith('list:')) return `[${argList(JSON.parse(a.slice(5)) as string[])}]`;
  if (a.startsWith('tuple:')) {
    const items = JSON.parse(a.slice(6)) as string[];
    return `(${argList(items)}${items.length === 1 ? ',' : ''})`;
  }
  // A stand-in of a class of the file (match/standin.ts): its name, or an instance of it.
  if (a.startsWith('class:')) return (JSON.parse(a.slice(6)) as { n: string }).n;
  if (a.startsWith('new:')) return `${(JSON.parse(a.slice(4)) as { c: { n: string } }).c.n}()`;
  return a.replace(/^builtins:/, '').replace(/^ref:([^:]+):/, '$1.');
}
const argList = (args: string[], kwargs: [string, string][] = []) => [...args.map(argText), ...kwargs.map(([k, v]) => `${k}=${argText(v)}`)].join(', ');
const shown = (p: Probe) => `${p.receiver ? argText(p.receiver) : p.module}.${p.path}(${argList(p.args, p.kwargs)})`;
const short = (s: string, max = 80) => (s.length > max ? `${s.slice(0, max - 3)}...` : s);

/**
 * The findings, with those a run decides decided: dropped when the call does not raise the
 * record's error there, certain when it does.
 */
export function runLiteralCalls(findings: Finding[], python: RulePython | undefined): Finding[] {
  // A call its literal arguments settle (match/bind.ts Verdict.settled) is reported only when a run shows it raising.
  const unsettled = () => findings.filter((f) => !f.settled);
  if (!python) return unsettled();
  const probes = new Map(findings.map((f) => [f, probeOf(f)] as const).filter(([, p]) => p !== undefined) as [Finding, Probe][]);
  if (!probes.size) return unsettled();
  const outcomes = runAll(python, [...probes.values()]);
  const out: Finding[] = [];
  for (const f of findings) {
    const p = probes.get(f);
    const o = p && outcomes.get(keyOf(p));
    if (!o || o.skip || (!o.ok && !o.exc)) {
      if (!f.settled) out.push(f);
    } else if (o.exc && o.exc.some((c) => classMatches(f.rule, c)) && sameRaise(f.rule, o)) {
      const ran = `running ${short(shown(p!))} in Python ${python.version} raises ${o.exc[0]!.replace(/^builtins\./, '')}`;
      const observed = short(o.msg ?? '', 200);
      // A generator's raise happens when what the call returns is iterated, which the call site may never do: possible.
      out.push(
        f.rule.condition.onIteration
          ? { ...f, observed, condition: `${ran} when the iterator it returns is iterated: ${short(o.msg ?? '')}` }
          : { ...f, observed, confidence: 'certain', condition: `${ran}: ${short(o.msg ?? '')}` },
      );
    }
  }
  return out;
}
