"""Lists the raise sites of a Python standard library, for scripts/gen-stdlib-records.mjs.

Usage: python3 stdlib_sites.py STDLIB_DIR  ->  one JSON document on stdout:
  {"version": "3.11.7", "sites": [...], "files": {relpath: source}}

A site is a `raise Name(...)` / `raise mod.Name(...)` whose innermost enclosing function is a
public module-level function, a public method (instance, class, static, property) of a public
module-level class, or `__init__` of a public class, in a public module (no path part starting
with `_` except `__init__.py`; no test, idlelib, turtledemo or site-packages folders).
"""
import ast
import builtins
import json
import os
import sys

SKIP_DIRS = {"test", "tests", "idlelib", "turtledemo", "site-packages", "__pycache__", "__phello__"}


def public_modules(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        parts = [] if rel == "." else rel.split(os.sep)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith((".", "_")) and "-" not in d)
        if any(p.startswith("_") for p in parts):
            continue
        if parts and not os.path.exists(os.path.join(dirpath, "__init__.py")):
            continue
        for f in sorted(filenames):
            if not f.endswith(".py") or (f.startswith("_") and f != "__init__.py") or "-" in f:
                continue
            yield os.path.join(rel, f) if parts else f


def module_name(rel):
    parts = rel[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def dotted(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return head and f"{head}.{node.attr}"
    return None


def is_builtin_exception(name):
    obj = getattr(builtins, name, None)
    return isinstance(obj, type) and issubclass(obj, BaseException)


def message_of(call, source):
    """(kind, template): 'literal' text, 'format' text with {…}/%s holes, 'expr' source, or 'none'."""
    if not call.args:
        return ("none", "")
    a = call.args[0]
    if isinstance(a, ast.Constant) and isinstance(a.value, str):
        return ("literal", a.value)
    if isinstance(a, ast.JoinedStr):
        out = []
        for v in a.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value))
            else:
                out.append("{" + (ast.get_source_segment(source, v.value) or "") + "}")
        return ("format", "".join(out))
    if isinstance(a, ast.BinOp) and isinstance(a.op, ast.Mod) and isinstance(a.left, ast.Constant) and isinstance(a.left.value, str):
        return ("format", a.left.value)
    if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "format" \
            and isinstance(a.func.value, ast.Constant) and isinstance(a.func.value.value, str):
        return ("format", a.func.value.value)
    if isinstance(a, ast.BinOp) and isinstance(a.op, ast.Add):
        pieces, stack = [], [a]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                stack += [n.right, n.left]
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                pieces.append(n.value)
            else:
                pieces.append("{" + (ast.get_source_segment(source, n) or "") + "}")
        if any(not p.startswith("{") for p in pieces):
            return ("format", "".join(pieces))
    if isinstance(a, ast.Constant) and isinstance(a.value, bytes):
        return ("literal", a.value.decode("latin-1"))
    return ("expr", ast.get_source_segment(source, a) or "")


def params_of(fn, drop_first):
    args = fn.args
    pos = args.posonlyargs + args.args
    if drop_first and pos:
        pos = pos[1:]
    required = len(pos) - len(args.defaults)
    names = [a.arg for a in pos[:max(0, required)]]
    names += [f"{a.arg}={a.arg}" for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    return names


def kind_of(fn, in_class):
    decos = [dotted(d.func if isinstance(d, ast.Call) else d) or "" for d in fn.decorator_list]
    if not in_class:
        return "function", decos
    if fn.name == "__init__":
        return "constructor", decos
    for d in decos:
        last = d.split(".")[-1]
        if last in ("classmethod", "staticmethod"):
            return last, decos
        if last in ("property", "cached_property", "setter", "deleter", "getter"):
            return "property", decos
    return "method", decos


def raises_in(fn):
    """Raise statements directly in fn (not in nested defs, lambdas or classes)."""
    stack = list(fn.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(n, ast.Raise):
            yield n
        stack.extend(ast.iter_child_nodes(n))


def scope_defs(body):
    """Definitions of a module or class body, through top-level if/try/else blocks."""
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield n
        elif isinstance(n, ast.If):
            yield from scope_defs(n.body)
            yield from scope_defs(n.orelse)
        elif isinstance(n, ast.Try):
            for b in (n.body, n.orelse, n.finalbody, *[h.body for h in n.handlers]):
                yield from scope_defs(b)


def site(rel, module, source, fn, cls, kind, decos, r):
    call = r.exc
    err = dotted(call.func)
    mkind, msg = message_of(call, source)
    return {
        "file": rel.replace(os.sep, "/"), "module": module, "line": r.lineno, "col": r.col_offset,
        "defLine": fn.lineno, "className": cls.name if cls else None, "func": fn.name, "kind": kind,
        "decorators": decos, "isAsync": isinstance(fn, ast.AsyncFunctionDef),
        "params": params_of(fn, cls is not None and kind != "staticmethod"),
        "classParams": None, "errorClass": err, "errorBuiltin": "." not in err and is_builtin_exception(err),
        "messageKind": mkind, "message": msg,
    }


def module_names(tree):
    """Names bound at module level (classes, imports, assignments), through top-level if/try blocks."""
    names = set()
    stack = list(tree.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(n.name)
        elif isinstance(n, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, ast.ImportFrom):
            names.update(a.asname or a.name for a in n.names)
        elif isinstance(n, (ast.Assign, ast.AnnAssign)):
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                names.update(x.id for x in ast.walk(t) if isinstance(x, ast.Name))
        elif isinstance(n, (ast.If, ast.Try)):
            stack.extend(n.body + n.orelse + getattr(n, "finalbody", []))
            for h in getattr(n, "handlers", []):
                stack.extend(h.body)
    return names


def raised_class(call, known):
    """The raised class as a name a user can import: a builtin exception or a module-level name (`Error`,
    `os.error`), not an attribute of `self`/`cls` or a local variable."""
    name = dotted(call.func)
    if not name:
        return None
    head = name.split(".")[0]
    if "." not in name and is_builtin_exception(name):
        return name
    return name if head in known and head not in ("self", "cls") else None


def import_map(tree, module, is_package):
    """Module-level imported name -> the qualified name it binds (relative imports resolved)."""
    pkg = module.split(".") if is_package else module.split(".")[:-1]
    out = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for a in n.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(n, ast.ImportFrom):
            base = n.module or ""
            if n.level:
                up = pkg[:len(pkg) - (n.level - 1)] if n.level > 1 else pkg
                base = ".".join(up + ([n.module] if n.module else []))
            for a in n.names:
                out[a.asname or a.name] = f"{base}.{a.name}" if base else a.name
    return out


def qualified_error(name, module, imports, known):
    """The raised class as user code names it in an `except` clause (`asyncio.exceptions.InvalidStateError`)."""
    head, _, rest = name.partition(".")
    if "." not in name and is_builtin_exception(name):
        return name
    if head in imports:
        q = imports[head] + ("." + rest if rest else "")
        return None if q.split(".")[0].startswith("_") else q
    return f"{module}.{name}" if head in known else None


def sites_of(rel, source, tree):
    module = module_name(rel)
    known = module_names(tree)
    imports = import_map(tree, module, rel.endswith("__init__.py"))
    out = []

    def visit_fn(fn, cls, kind, decos):
        for r in raises_in(fn):
            if isinstance(r.exc, ast.Call) and raised_class(r.exc, known):
                s = site(rel, module, source, fn, cls, kind, decos, r)
                s["errorQualified"] = qualified_error(s["errorClass"], module, imports, known)
                out.append(s)

    for d in scope_defs(tree.body):
        if d.name.startswith("_"):
            continue
        if isinstance(d, ast.ClassDef):
            init = next((m for m in scope_defs(d.body) if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
            ctor = params_of(init, True) if init else []
            for m in scope_defs(d.body):
                if isinstance(m, ast.ClassDef) or (m.name.startswith("_") and m.name != "__init__"):
                    continue
                kind, decos = kind_of(m, True)
                before = len(out)
                visit_fn(m, d, kind, decos)
                for s in out[before:]:
                    s["classParams"] = ctor
        else:
            kind, decos = kind_of(d, False)
            visit_fn(d, None, kind, decos)
    return out


def main():
    root = sys.argv[1]
    sites, files = [], {}
    for rel in public_modules(root):
        path = os.path.join(root, rel)
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
            tree = ast.parse(source, filename=path)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        found = sites_of(rel, source, tree)
        if found:
            sites.extend(found)
            files[rel.replace(os.sep, "/")] = source
    v = sys.version_info
    json.dump({"version": f"{v.major}.{v.minor}.{v.micro}", "sites": sites, "files": files}, sys.stdout)


main()
