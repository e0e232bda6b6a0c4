/**
 * Cheaper crossings into the WebAssembly parser.
 *
 * Every web-tree-sitter `Node` getter (`type`, `endIndex`, `childForFieldId`, `namedChildren`, ...)
 * first writes the node (five 32-bit words) into a transfer buffer with the Emscripten module's
 * `setValue(ptr, value, 'i32')`, and reads results back with `getValue`. Those generic helpers
 * test the type string (`type.endsWith('*')`, a `switch`) and store through a little-endian
 * `DataView` on every word; a CPU profile of a dataset-scale run put them (with `marshalNode`)
 * near 15% of the run. On a little-endian host an `Int32Array` store is the same store, so the
 * module's `setValue`/`getValue` are replaced by versions that take the `i32` path directly and
 * leave every other type to the originals. The results are bit for bit the same.
 *
 * web-tree-sitter passes the options object of `Parser.init` to Emscripten, which uses it as the
 * module object (`C` in web-tree-sitter's code): its `setValue`, `getValue` and `HEAP32` are the
 * ones web-tree-sitter calls. Anything unexpected (another version's shape, a big-endian host)
 * leaves the module as it is.
 */
import { endianness } from 'node:os';

type GetValue = (ptr: number, type?: string) => number;
type SetValue = (ptr: number, value: number, type?: string) => void;

interface EmscriptenModule {
  HEAP32?: Int32Array;
  getValue?: GetValue;
  setValue?: SetValue;
}

/** Installs the fast `i32` transfers on an initialised Emscripten module; returns whether it did. */
export function speedUpTransfers(module: object): boolean {
  const m = module as EmscriptenModule;
  const { getValue, setValue } = m;
  if (endianness() !== 'LE' || typeof getValue !== 'function' || typeof setValue !== 'function' || !(m.HEAP32 instanceof Int32Array)) return false;
  // The view is replaced when the memory grows (the old buffer is detached, its length 0).
  let heap = m.HEAP32;
  const view = (): Int32Array => (heap.length ? heap : (heap = m.HEAP32!));
  m.setValue = (ptr: number, value: number, type = 'i8'): void => {
    if (type === 'i32') view()[ptr >> 2] = value;
    else setValue(ptr, value, type);
  };
  m.getValue = (ptr: number, type = 'i8'): number => (type === 'i32' ? view()[ptr >> 2]! : getValue(ptr, type));
  return true;
}
