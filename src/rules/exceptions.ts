/**
 * Exception class hierarchy: Python's built-in exceptions, common standard-library ones, and
 * any class a record's `sourceCode` defines. Names: built-ins bare, others fully qualified.
 */

const BUILTIN: Record<string, string[]> = {
  BaseException: [],
  BaseExceptionGroup: ['BaseException'],
  GeneratorExit: ['BaseException'],
  KeyboardInterrupt: ['BaseException'],
  SystemExit: ['BaseException'],
  Exception: ['BaseException'],
  ArithmeticError: ['Exception'],
  FloatingPointError: ['ArithmeticError'],
  OverflowError: ['ArithmeticError'],
  ZeroDivisionError: ['ArithmeticError'],
  AssertionError: ['Exception'],
  AttributeError: ['Exception'],
  BufferError: ['Exception'],
  EOFError: ['Exception'],
  ExceptionGroup: ['BaseExceptionGroup', 'Exception'],
  ImportError: ['Exception'],
  ModuleNotFoundError: ['ImportError'],
  LookupError: ['Exception'],
  IndexError: ['LookupError'],
  KeyError: ['LookupError'],
  MemoryError: ['Exception'],
  NameError: ['Exception'],
  UnboundLocalError: ['NameError'],
  OSError: ['Exception'],
  BlockingIOError: ['OSError'],
  ChildProcessError: ['OSError'],
  ConnectionError: ['OSError'],
  BrokenPipeError: ['ConnectionError'],
  ConnectionAbortedError: ['ConnectionError'],
  ConnectionRefusedError: ['ConnectionError'],
  ConnectionResetError: ['ConnectionError'],
  FileExistsError: ['OSError'],
  FileNotFoundError: ['OSError'],
  InterruptedError: ['OSError'],
  IsADirectoryError: ['OSError'],
  NotADirectoryError: ['OSError'],
  PermissionError: ['OSError'],
  ProcessLookupError: ['OSError'],
  TimeoutError: ['OSError'],
  ReferenceError: ['Exception'],
  RuntimeError: ['Exception'],
  NotImplementedError: ['RuntimeError'],
  RecursionError: ['RuntimeError'],
  StopAsyncIteration: ['Exception'],
  StopIteration: ['Exception'],
  SyntaxError: ['Exception'],
  IndentationError: ['SyntaxError'],
  TabError: ['IndentationError'],
  SystemError: ['Exception'],
  TypeError: ['Exception'],
  ValueError: ['Exception'],
  UnicodeError: ['ValueError'],
  UnicodeDecodeError: ['UnicodeError'],
  UnicodeEncodeError: ['UnicodeError'],
  UnicodeTranslateError: ['UnicodeError'],
  Warning: ['Exception'],
};

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

/** Standard-library exception classes: defining name → bases; `aliases` gives public names. */
const STDLIB: Record<string, { bases: string[]; aliases?: string[] }> = {
  'json.decoder.JSONDecodeError': { bases: ['ValueError'], aliases: ['json.JSONDecodeError'] },
  'io.UnsupportedOperation': { bases: ['OSError', 'ValueError'], aliases: ['_io.UnsupportedOperation'] },
  'subprocess.SubprocessError': { bases: ['Exception'] },
  'subprocess.CalledProcessError': { bases: ['subprocess.SubprocessError'] },
  'subprocess.TimeoutExpired': { bases: ['subprocess.SubprocessError'] },
  'asyncio.exceptions.CancelledError': { bases: ['BaseException'], aliases: ['asyncio.CancelledError'] },
  'asyncio.exceptions.InvalidStateError': { bases: ['Exception'], aliases: ['asyncio.InvalidStateError'] },
  'asyncio.exceptions.IncompleteReadError': { bases: ['EOFError'], aliases: ['asyncio.IncompleteReadError'] },
  'asyncio.exceptions.LimitOverrunError': { bases: ['Exception'], aliases: ['asyncio.LimitOverrunError'] },
  'asyncio.queues.QueueEmpty': { bases: ['Exception'], aliases: ['asyncio.QueueEmpty'] },
  'asyncio.queues.QueueFull': { bases: ['Exception'], aliases: ['asyncio.QueueFull'] },
  'concurrent.futures._base.CancelledError': { bases: ['Exception'], aliases: ['concurrent.futures.CancelledError'] },
  'queue.Empty': { bases: ['Exception'] },
  'queue.Full': { bases: ['Exception'] },
  'configparser.Error': { bases: ['Exception'] },
  'configparser.NoSectionError': { bases: ['configparser.Error'] },
  'configparser.NoOptionError': { bases: ['configparser.Error'] },
  'configparser.DuplicateSectionError': { bases: ['configparser.Error'] },
  'configparser.InterpolationError': { bases: ['configparser.Error'] },
  'configparser.ParsingError': { bases: ['configparser.Error'] },
  'configparser.MissingSectionHeaderError': { bases: ['configparser.ParsingError'] },
  'csv.Error': { bases: ['Exception'], aliases: ['_csv.Error'] },
  'pickle.PickleError': { bases: ['Exception'] },
  'pickle.PicklingError': { bases: ['pickle.PickleError'] },
  'pickle.UnpicklingError': { bases: ['pickle.PickleError'] },
  'struct.error': { bases: ['Exception'], aliases: ['_struct.error'] },
  'zipfile.BadZipFile': { bases: ['Exception'], aliases: ['zipfile.BadZipfile'] },
  'zipfile.LargeZipFile': { bases: ['Exception'] },
  'tarfile.TarError': { bases: ['Exception'] },
  'tarfile.ReadError': { bases: ['tarfile.TarError'] },
  'tarfile.CompressionError': { bases: ['tarfile.TarError'] },
  'shutil.Error': { bases: ['OSError'] },
  'shutil.SameFileError': { bases: ['shutil.Error'] },
  'binascii.Error': { bases: ['ValueError'] },
  'binascii.Incomplete': { bases: ['Exception'] },
  'base64.binascii.Error': { bases: ['ValueError'] },
  're.error': { bases: ['Exception'], aliases: ['re.PatternError'] },
  'socket.gaierror': { bases: ['OSError'] },
  'socket.herror': { bases: ['OSError'] },
  'ssl.SSLError': { bases: ['OSError'] },
  'ssl.SSLCertVerificationError': { bases: ['ssl.SSLError', 'ValueError'] },
  'urllib.error.URLError': { bases: ['OSError'] },
  'urllib.error.HTTPError': { bases: ['urllib.error.URLError'] },
  'http.client.HTTPException': { bases: ['Exception'] },
  'http.client.RemoteDisconnected': { bases: ['ConnectionResetError', 'http.client.BadStatusLine'] },
  'http.client.BadStatusLine': { bases: ['http.client.HTTPException'] },
  'xml.etree.ElementTree.ParseError': { bases: ['SyntaxError'] },
  'xml.parsers.expat.ExpatError': { bases: ['Exception'] },
  'sqlite3.Error': { bases: ['Exception'] },
  'sqlite3.DatabaseError': { bases: ['sqlite3.Error'] },
  'sqlite3.OperationalError': { bases: ['sqlite3.DatabaseError'] },
  'sqlite3.IntegrityError': { bases: ['sqlite3.DatabaseError'] },
  'sqlite3.ProgrammingError': { bases: ['sqlite3.DatabaseError'] },
  'sqlite3.InterfaceError': { bases: ['sqlite3.Error'] },
  'decimal.DecimalException': { bases: ['ArithmeticError'] },
  'decimal.InvalidOperation': { bases: ['decimal.DecimalException'] },
  'decimal.DivisionByZero': { bases: ['decimal.DecimalException', 'ZeroDivisionError'] },
  'unicodedata.error': { bases: ['Exception'] },
  'zlib.error': { bases: ['Exception'] },
  'lzma.LZMAError': { bases: ['Exception'] },
  'gzip.BadGzipFile': { bases: ['OSError'] },
  'email.errors.MessageError': { bases: ['Exception'] },
  'getopt.GetoptError': { bases: ['Exception'] },
  'argparse.ArgumentError': { bases: ['Exception'] },
  'argparse.ArgumentTypeError': { bases: ['Exception'] },
  'tomllib.TOMLDecodeError': { bases: ['ValueError'] },
  'importlib.metadata.PackageNotFoundError': { bases: ['ModuleNotFoundError'] },
  'locale.Error': { bases: ['Exception'] },
  'statistics.StatisticsError': { bases: ['ValueError'] },
  'uuid.SafeUUID': { bases: [] },
  'graphlib.CycleError': { bases: ['ValueError'] },
  'shlex.Error': { bases: ['ValueError'] },
  'ipaddress.AddressValueError': { bases: ['ValueError'] },
  'ipaddress.NetmaskValueError': { bases: ['ValueError'] },
  'zoneinfo.ZoneInfoNotFoundError': { bases: ['KeyError'] },
  'calendar.IllegalMonthError': { bases: ['ValueError'] },
};

export class ExceptionHierarchy {
  private readonly bases = new Map<string, string[]>();
  private readonly alias = new Map<string, string>();

  constructor() {
    for (const [k, v] of Object.entries(BUILTIN)) {
      this.bases.set(k, v);
      this.alias.set(`builtins.${k}`, k);
    }
    for (const [k, v] of Object.entries(BUILTIN_ALIASES)) this.alias.set(k, v);
    this.alias.set('builtins.IOError', 'OSError');
    this.alias.set('builtins.EnvironmentError', 'OSError');
    for (const [k, v] of Object.entries(STDLIB)) {
      this.bases.set(k, v.bases);
      for (const a of v.aliases ?? []) this.alias.set(a, k);
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
