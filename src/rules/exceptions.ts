/**
 * Exception class hierarchy: Python's built-in exceptions, common standard-library ones, and
 * any class a record's `sourceCode` defines. Names: built-ins bare, others fully qualified.
 */

/** Reads a class table: one class a line, `Name < Base Base = Alias Alias` (its bases and other public names; either may be absent). */
function classTable(text: string): [string, { bases: string[]; aliases: string[] }][] {
  const words = (s = '') => s.split(' ').filter(Boolean);
  return text.trim().split('\n').map((line) => {
    const [head, aliases] = line.split(' = ');
    const [name, bases] = head!.split(' < ');
    return [name!.trim(), { bases: words(bases), aliases: words(aliases) }];
  });
}

/** Built-in exception classes (also known as `builtins.<name>`). */
const BUILTIN = classTable(`
BaseException
BaseExceptionGroup < BaseException
GeneratorExit < BaseException
KeyboardInterrupt < BaseException
SystemExit < BaseException
Exception < BaseException
ArithmeticError < Exception
FloatingPointError < ArithmeticError
OverflowError < ArithmeticError
ZeroDivisionError < ArithmeticError
AssertionError < Exception
AttributeError < Exception
BufferError < Exception
EOFError < Exception
ExceptionGroup < BaseExceptionGroup Exception
ImportError < Exception
ModuleNotFoundError < ImportError
LookupError < Exception
IndexError < LookupError
KeyError < LookupError
MemoryError < Exception
NameError < Exception
UnboundLocalError < NameError
OSError < Exception
BlockingIOError < OSError
ChildProcessError < OSError
ConnectionError < OSError
BrokenPipeError < ConnectionError
ConnectionAbortedError < ConnectionError
ConnectionRefusedError < ConnectionError
ConnectionResetError < ConnectionError
FileExistsError < OSError
FileNotFoundError < OSError
InterruptedError < OSError
IsADirectoryError < OSError
NotADirectoryError < OSError
PermissionError < OSError
ProcessLookupError < OSError
TimeoutError < OSError
ReferenceError < Exception
RuntimeError < Exception
NotImplementedError < RuntimeError
RecursionError < RuntimeError
StopAsyncIteration < Exception
StopIteration < Exception
SyntaxError < Exception
IndentationError < SyntaxError
TabError < IndentationError
SystemError < Exception
TypeError < Exception
ValueError < Exception
UnicodeError < ValueError
UnicodeDecodeError < UnicodeError
UnicodeEncodeError < UnicodeError
UnicodeTranslateError < UnicodeError
Warning < Exception
`);

/** Aliases of built-ins (`IOError` is `OSError`). */
const BUILTIN_ALIASES: Record<string, string> = {
  IOError: 'OSError',
  EnvironmentError: 'OSError',
  'socket.error': 'OSError',
  'select.error': 'OSError',
  'os.error': 'OSError',
  'asyncio.TimeoutError': 'TimeoutError',
  'concurrent.futures.TimeoutError': 'TimeoutError',
  'socket.timeout': 'TimeoutError',
};

/** Standard-library exception classes: the defining name, its bases, its public names. */
const STDLIB = classTable(`
json.decoder.JSONDecodeError < ValueError = json.JSONDecodeError
io.UnsupportedOperation < OSError ValueError = _io.UnsupportedOperation
subprocess.SubprocessError < Exception
subprocess.CalledProcessError < subprocess.SubprocessError
subprocess.TimeoutExpired < subprocess.SubprocessError
asyncio.exceptions.CancelledError < BaseException = asyncio.CancelledError
asyncio.exceptions.InvalidStateError < Exception = asyncio.InvalidStateError
asyncio.exceptions.IncompleteReadError < EOFError = asyncio.IncompleteReadError
asyncio.exceptions.LimitOverrunError < Exception = asyncio.LimitOverrunError
asyncio.queues.QueueEmpty < Exception = asyncio.QueueEmpty
asyncio.queues.QueueFull < Exception = asyncio.QueueFull
concurrent.futures._base.CancelledError < Exception = concurrent.futures.CancelledError
queue.Empty < Exception
queue.Full < Exception
configparser.Error < Exception
configparser.NoSectionError < configparser.Error
configparser.NoOptionError < configparser.Error
configparser.DuplicateSectionError < configparser.Error
configparser.InterpolationError < configparser.Error
configparser.ParsingError < configparser.Error
configparser.MissingSectionHeaderError < configparser.ParsingError
csv.Error < Exception = _csv.Error
pickle.PickleError < Exception
pickle.PicklingError < pickle.PickleError
pickle.UnpicklingError < pickle.PickleError
struct.error < Exception = _struct.error
zipfile.BadZipFile < Exception = zipfile.BadZipfile
zipfile.LargeZipFile < Exception
tarfile.TarError < Exception
tarfile.ReadError < tarfile.TarError
tarfile.CompressionError < tarfile.TarError
shutil.Error < OSError
shutil.SameFileError < shutil.Error
binascii.Error < ValueError
binascii.Incomplete < Exception
base64.binascii.Error < ValueError
re.error < Exception = re.PatternError
socket.gaierror < OSError
socket.herror < OSError
ssl.SSLError < OSError
ssl.SSLCertVerificationError < ssl.SSLError ValueError
urllib.error.URLError < OSError
urllib.error.HTTPError < urllib.error.URLError
http.client.HTTPException < Exception
http.client.RemoteDisconnected < ConnectionResetError http.client.BadStatusLine
http.client.BadStatusLine < http.client.HTTPException
xml.etree.ElementTree.ParseError < SyntaxError
xml.parsers.expat.ExpatError < Exception
sqlite3.Error < Exception
sqlite3.DatabaseError < sqlite3.Error
sqlite3.OperationalError < sqlite3.DatabaseError
sqlite3.IntegrityError < sqlite3.DatabaseError
sqlite3.ProgrammingError < sqlite3.DatabaseError
sqlite3.InterfaceError < sqlite3.Error
decimal.DecimalException < ArithmeticError
decimal.InvalidOperation < decimal.DecimalException
decimal.DivisionByZero < decimal.DecimalException ZeroDivisionError
unicodedata.error < Exception
zlib.error < Exception
lzma.LZMAError < Exception
gzip.BadGzipFile < OSError
email.errors.MessageError < Exception
getopt.GetoptError < Exception
argparse.ArgumentError < Exception
argparse.ArgumentTypeError < Exception
tomllib.TOMLDecodeError < ValueError
importlib.metadata.PackageNotFoundError < ModuleNotFoundError
locale.Error < Exception
statistics.StatisticsError < ValueError
uuid.SafeUUID
graphlib.CycleError < ValueError
shlex.Error < ValueError
ipaddress.AddressValueError < ValueError
ipaddress.NetmaskValueError < ValueError
zoneinfo.ZoneInfoNotFoundError < KeyError
calendar.IllegalMonthError < ValueError
`);

export class ExceptionHierarchy {
  private readonly bases = new Map<string, string[]>();
  private readonly alias = new Map<string, string>();

  constructor() {
    for (const [k, v] of BUILTIN) {
      this.bases.set(k, v.bases);
      this.alias.set(`builtins.${k}`, k);
    }
    for (const [k, v] of Object.entries(BUILTIN_ALIASES)) this.alias.set(k, v);
    this.alias.set('builtins.IOError', 'OSError');
    this.alias.set('builtins.EnvironmentError', 'OSError');
    for (const [k, v] of STDLIB) {
      this.bases.set(k, v.bases);
      for (const a of v.aliases) this.alias.set(a, k);
    }
  }

  /** Plain data for the rules snapshot (`fromSnapshot` restores an identical hierarchy). */
  snapshot(): { bases: [string, string[]][]; alias: [string, string][] } {
    return { bases: [...this.bases], alias: [...this.alias] };
  }

  static fromSnapshot(s: { bases: [string, string[]][]; alias: [string, string][] }): ExceptionHierarchy {
    const h = new ExceptionHierarchy();
    h.bases.clear();
    h.alias.clear();
    for (const [k, v] of s.bases) h.bases.set(k, v);
    for (const [k, v] of s.alias) h.alias.set(k, v);
    return h;
  }

  /** Adds a library-defined exception class (from a record's sourceCode or a rule). */
  define(name: string, bases: string[], aliases: string[] = []): void {
    if (!this.bases.has(name)) this.bases.set(name, bases.map((b) => this.canonical(b)));
    this.reexports.clear();
    for (const a of aliases) if (a !== name && !this.alias.has(a)) this.alias.set(a, name);
  }

  canonical(name: string): string {
    return this.alias.get(name) ?? name;
  }

  isKnown(name: string): boolean {
    return this.bases.has(this.canonical(name));
  }

  /**
   * True when `cls` is `base` or inherits from it. A library class is also known by the name of any
   * ancestor package of its module (`openai.OpenAIError` is `openai._exceptions.OpenAIError`). A class
   * whose ancestry the hierarchy does not know (an undefined library class) is taken to derive from
   * `Exception`, as library exceptions do: `except Exception` / `except BaseException` catch it.
   */
  isSubclass(cls: string, base: string): boolean {
    const target = this.canonical(base);
    const seen = new Set<string>();
    const stack = [this.canonical(cls)];
    let unknown = false;
    while (stack.length) {
      const c = stack.pop()!;
      if (c === target || sameClass(c, target)) return true;
      if (seen.has(c)) continue;
      seen.add(c);
      const bases = this.basesOf(c);
      if (!bases) unknown = true;
      for (const b of bases ?? []) stack.push(this.canonical(b));
    }
    return unknown && (target === 'Exception' || target === 'BaseException');
  }

  private readonly reexports = new Map<string, string[] | null>();

  /** Bases of a class by its name or by a re-exported name of it. */
  private basesOf(c: string): string[] | undefined {
    const direct = this.bases.get(c);
    if (direct) return direct;
    if (!c.includes('.')) return undefined;
    const cached = this.reexports.get(c);
    if (cached !== undefined) return cached ?? undefined;
    let found: string[] | null = null;
    for (const [k, v] of this.bases) {
      if (sameClass(k, c)) {
        found = v;
        break;
      }
    }
    this.reexports.set(c, found);
    return found ?? undefined;
  }

  /** The class and its bases up to BaseException, for explanations. */
  mro(cls: string): string[] {
    const out: string[] = [];
    const stack = [this.canonical(cls)];
    while (stack.length) {
      const c = stack.shift()!;
      if (out.includes(c)) continue;
      out.push(c);
      stack.push(...(this.basesOf(c) ?? []).map((b) => this.canonical(b)));
    }
    return out;
  }
}

/** `a.b._c.Klass` and `a.Klass` (a re-export by an ancestor package) name the same class. */
export function sameClass(x: string, y: string): boolean {
  if (x === y) return true;
  const i = x.lastIndexOf('.');
  const j = y.lastIndexOf('.');
  if (i < 0 || j < 0 || x.slice(i) !== y.slice(j)) return false;
  const mx = x.slice(0, i);
  const my = y.slice(0, j);
  return mx.startsWith(`${my}.`) || my.startsWith(`${mx}.`);
}
