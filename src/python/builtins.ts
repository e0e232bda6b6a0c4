/** The names Python's `builtins` module defines: a free name among them needs no import. */
export const BUILTINS = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits ' +
    'delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash help hex id input ' +
    'int isinstance issubclass iter len license list locals map max memoryview min next object oct open ord pow print property quit ' +
    'range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__ __name__ __file__ ' +
    '__doc__ __builtins__ __debug__ NotImplemented Ellipsis None True False BaseException BaseExceptionGroup Exception ExceptionGroup ' +
    'ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError BufferError ChildProcessError ConnectionAbortedError ' +
    'ConnectionError ConnectionRefusedError ConnectionResetError EOFError EnvironmentError FileExistsError FileNotFoundError ' +
    'FloatingPointError GeneratorExit IOError ImportError IndentationError IndexError InterruptedError IsADirectoryError KeyError ' +
    'KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError ' +
    'OverflowError PermissionError ProcessLookupError RecursionError ReferenceError RuntimeError StopAsyncIteration StopIteration ' +
    'SyntaxError SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError ' +
    'UnicodeError UnicodeTranslateError ValueError ZeroDivisionError Warning UserWarning DeprecationWarning PendingDeprecationWarning ' +
    'SyntaxWarning RuntimeWarning FutureWarning ImportWarning UnicodeWarning BytesWarning ResourceWarning EncodingWarning'
  ).split(' '),
);

/**
 * Free names the semantic model reads as `builtins.<name>` without an import (src/semantic/expressions.ts):
 * built-in exception classes, and any name shaped like one. The prefilter relies on it too (src/prefilter/needs.ts).
 */
export const BUILTIN_EXCEPTION_NAME =
  /^(?:[A-Z][A-Za-z]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration|Group)|BaseException|GeneratorExit|StopIteration|StopAsyncIteration|KeyboardInterrupt|SystemExit)$/;

/** A built-in exception or warning class of `builtins` (`Warning` and `Exception` too). */
export function isBuiltinExceptionClass(name: string): boolean {
  return BUILTINS.has(name) && (BUILTIN_EXCEPTION_NAME.test(name) || name === 'Exception' || name === 'Warning');
}

/** Built-in classes a call may pass as a value (`annotation=int`). */
export const BUILTIN_CLASSES = new Set([
  'int',
  'str',
  'float',
  'bool',
  'bytes',
  'bytearray',
  'memoryview',
  'complex',
  'list',
  'tuple',
  'dict',
  'set',
  'frozenset',
  'object',
  'range',
  'type',
]);
