"""An oracle for tests: the names a Python file reads that nothing defines (pyflakes' undefined-name).

    python3 undefined_names.py FILE...   ->   one JSON object: {file: [name, ...]}

CPython's own symtable decides each scope's names: a name that a scope reads as global
(not bound in it, not free from an enclosing function) is undefined when the module binds it
nowhere and it is no builtin. A module with `from m import *` is skipped, as pyflakes does.
"""
import builtins
import json
import symtable
import sys

BUILTINS = set(dir(builtins)) | {"__file__", "__name__", "__doc__", "__spec__", "__loader__", "__package__", "__builtins__", "__path__", "__annotations__"}


def undefined(path):
    with open(path, "rb") as f:
        source = f.read()
    if b"import *" in source:
        return []
    top = symtable.symtable(source.decode("utf-8-sig"), path, "exec")
    module_names = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
    out = set()

    def visit(table):
        for s in table.get_symbols():
            name = s.get_name()
            if not s.is_referenced() or name in BUILTINS:
                continue
            if table.get_type() == "module":
                if name not in module_names:
                    out.add(name)
            elif s.is_global() and not s.is_declared_global() and name not in module_names:
                out.add(name)
        for child in table.get_children():
            visit(child)

    visit(top)
    return sorted(out)


if __name__ == "__main__":
    json.dump({p: undefined(p) for p in sys.argv[1:]}, sys.stdout)
