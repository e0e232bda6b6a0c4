/**
 * The literal-call runner's Python side (./probe.ts): reads the probes as JSON on stdin, builds each
 * argument (a literal, a named constant of the standard library, a pure call of such, or a stand-in
 * of a class of the checked file: src/match/standin.ts), runs the call under a timer and a memory
 * cap, and writes one outcome per probe: no error, the error's classes, message and raising frame,
 * or why it was skipped. `PURE` (argv[1]) names the callables it may run. It serves batches, one
 * JSON line each, until its input closes: one interpreter per thread and run (./pyserver.ts).
 */
export const SCRIPT = String.raw`
import abc, ast, builtins, enum, functools, importlib, inspect, io, itertools, json, signal, sys, traceback, types
try:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
except Exception:
    pass
PURE = json.loads(sys.argv[1])
class Late(BaseException):
    pass
def late(*_):
    raise Late()
signal.signal(signal.SIGALRM, late)
out_ = sys.stdout
sys.stdout = io.StringIO()
sys.stderr = io.StringIO()
SIDE_EFFECTS = {'antigravity', 'this', '__hello__', '__phello__', 'idlelib', 'turtledemo', 'turtle', 'tkinter', 'test'}
def acts_on_import(name):
    parts = name.split('.')
    return parts[0] in SIDE_EFFECTS or '__main__' in parts
class Refused(BaseException):
    pass
import_ = builtins.__import__
def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    # A call that imports by name (xml.sax.make_parser's parser list) never imports a module that acts on import.
    if level == 0 and acts_on_import(name or ''):
        raise Refused(name)
    return import_(name, globals, locals, fromlist, level)
builtins.__import__ = guarded_import
import_module_ = importlib.import_module
def guarded_import_module(name, package=None):
    if not name.startswith('.') and acts_on_import(name):
        raise Refused(name)
    return import_module_(name, package)
importlib.import_module = guarded_import_module
def reference(text):
    module, path = text[4:].split(':', 1)
    if acts_on_import(module):
        raise ValueError(text)
    v = importlib.import_module(module)
    for part in path.split('.'):
        if not isinstance(v, (type, types.ModuleType)):
            raise ValueError(text)
        v = getattr(v, part)
    if not constant(v):
        raise ValueError(text)
    return v
def constant(v):
    # A value no program changes: not a list, a dict or process state such as sys.argv.
    if isinstance(v, (tuple, frozenset)):
        return all(constant(x) for x in v)
    return v is None or isinstance(v, (bool, int, float, complex, str, bytes, type, enum.Enum))
BUILTIN_PURE = {'bytes', 'bytearray', 'memoryview', 'frozenset', 'tuple', 'int', 'float', 'complex', 'str', 'bool', 'range'}
def allowed(m, p):
    names = PURE.get(m)
    return names is not None and (p in names or ('*' in names and not p.startswith('_') and '.' not in p))
def callee(f):
    if f.startswith('builtins:'):
        if f[9:] not in BUILTIN_PURE:
            raise ValueError(f)
        return getattr(builtins, f[9:])
    m, p = f.split(':', 1)
    # A submodule named from its package (from http import cookies: http:cookies.Morsel).
    while not allowed(m, p) and '.' in p:
        first, p = p.split('.', 1)
        m = m + '.' + first
    if not allowed(m, p):
        raise ValueError(f)
    v = importlib.import_module(m)
    for part in p.split('.'):
        v = getattr(v, part)
    return v
def immutable(v):
    # What a local held since its binding is the value it was bound to: a value type only.
    if isinstance(v, (tuple, frozenset)):
        return all(immutable(x) for x in v)
    if v is None or isinstance(v, (bool, int, float, complex, str, bytes, range)):
        return True
    if isinstance(v, (list, dict, set, bytearray, memoryview)):
        return False
    h = type(v).__hash__
    return h is not None and h is not object.__hash__
# Stand-ins for the classes of the checked file (src/match/standin.ts): their code is not run; a run
# that reaches it (a method called, a property read, an attribute __init__ set used) says nothing.
class Opaque(BaseException):
    pass
touched = [0]
def opaque(*_a, **_k):
    touched[0] += 1
    raise Opaque()
class Hidden:
    __slots__ = ()
    def __getattribute__(self, _name):
        return opaque()
for _n in ('__eq__', '__ne__', '__lt__', '__le__', '__gt__', '__ge__', '__hash__', '__bool__', '__len__', '__iter__', '__repr__', '__str__',
           '__call__', '__getitem__', '__contains__', '__index__', '__int__', '__float__', '__format__', '__reduce__', '__reduce_ex__', '__dir__'):
    setattr(Hidden, _n, opaque)
DECORATORS = {'property': property, 'staticmethod': staticmethod, 'classmethod': classmethod, 'DynamicClassAttribute': types.DynamicClassAttribute,
              'cached_property': functools.cached_property, 'abstractmethod': abc.abstractmethod}
KINDS = {'p': inspect.Parameter.POSITIONAL_ONLY, 'n': inspect.Parameter.POSITIONAL_OR_KEYWORD, 'a': inspect.Parameter.VAR_POSITIONAL,
         'k': inspect.Parameter.KEYWORD_ONLY, 'w': inspect.Parameter.VAR_KEYWORD}
def stand_fn(owner, name, sig):
    def f(*a, **k):
        return opaque()
    f.__name__ = name
    f.__qualname__ = owner + '.' + name
    f.__signature__ = inspect.Signature([inspect.Parameter(p, KINDS[k], default=None if d else inspect.Parameter.empty) for p, k, d in sig])
    return f
def stand_class(c):
    bases = tuple(value(b) for b in c['b'])
    if not all(isinstance(b, type) for b in bases):
        raise ValueError('base')
    ns = {}
    for e in c['ns']:
        if e[1] == 'def':
            v = stand_fn(c['n'], e[0], e[2])
            for d in reversed(e[3]):
                v = getattr(ns[e[0]], d)(v) if d in ('setter', 'getter', 'deleter') else DECORATORS[d](v)
        else:
            v = value(e[2]) if e[1] == 'val' else object()
        ns[e[0]] = v
    kw = {'metaclass': value(c['mc'])} if c.get('mc') else {}
    return types.new_class(c['n'], bases, kw, lambda body: body.update(ns))
def stand_new(c):
    obj = object.__new__(stand_class(c['c']))
    for name in c['i']:
        object.__setattr__(obj, name, Hidden())
    return obj
def value(text):
    if text.startswith('class:'):
        return stand_class(json.loads(text[6:]))
    if text.startswith('new:'):
        return stand_new(json.loads(text[4:]))
    if text.startswith('call:'):
        c = json.loads(text[5:])
        v = callee(c['f'])(*[value(a) for a in c['a']], **{k: value(x) for k, x in c['k']})
        if c.get('h') and not immutable(v):
            raise ValueError('mutable')
        return v
    if text.startswith('list:'):
        return [value(x) for x in json.loads(text[5:])]
    if text.startswith('tuple:'):
        return tuple(value(x) for x in json.loads(text[6:]))
    if text.startswith('ref:'):
        return reference(text)
    if text.startswith('builtins:'):
        v = getattr(builtins, text[9:])
        if not isinstance(v, type):
            raise ValueError(text)
        return v
    return ast.literal_eval(text)
def method(p):
    # A public method of what a pure call made, when its class is pure too (an instance of a value class).
    obj = value(p['r'])
    t = type(obj)
    if p['p'].startswith('_') or not allowed(t.__module__, t.__qualname__):
        raise ValueError('not pure')
    # A class the list names methods of (configparser's): only those run (the others may read files).
    if any(n.startswith(t.__qualname__ + '.') for n in PURE.get(t.__module__, ())) and not allowed(t.__module__, t.__qualname__ + '.' + p['p']):
        raise ValueError('not pure')
    return getattr(obj, p['p'])
def run(p):
    if 'r' not in p and not allowed(p['m'], p['p']):
        return {'skip': 'not pure'}
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    touched[0] = 0
    try:
        # An argument that fails to build (a nested call raising, a value not pure) skips the probe.
        args = [value(a) for a in p['a']]
        kwargs = {k: value(v) for k, v in p['k']}
        f = method(p) if 'r' in p else callee(p['m'] + ':' + p['p'])
        try:
            r = f(*args, **kwargs)
            # A generator raises as it is iterated: iterate it (bounded), so no raise means none.
            if type(r) is types.GeneratorType:
                for _ in itertools.islice(r, 100000):
                    pass
            return {'skip': 'stand-in ran'} if touched[0] else {'ok': True}
        except Late:
            raise
        except Exception as e:
            if touched[0]:
                return {'skip': 'stand-in ran'}
            tb = traceback.extract_tb(e.__traceback__)
            return {'exc': [c.__module__ + '.' + c.__qualname__ for c in type(e).__mro__], 'msg': str(e)[:500], 'frame': [tb[-1].filename, tb[-1].lineno] if tb else None}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
# One batch per line, one line of outcomes per batch, until stdin closes (./pyserver.ts keeps the process for the run).
while True:
    line = sys.stdin.readline()
    if not line:
        break
    sys.stdout = io.StringIO()
    sys.stderr = io.StringIO()
    res = []
    try:
        batch = json.loads(line)
    except ValueError:
        batch = []
    for p in batch:
        try:
            res.append(run(p))
        except BaseException as e:
            res.append({'skip': type(e).__name__})
    out_.write(json.dumps(res) + '\n')
    out_.flush()
`;
