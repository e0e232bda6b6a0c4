/** Rule compilation: the entry points of src/compile/python/ (one record → one `Rule`). */
export { compileRecord } from './record.js';
export { versionNotes } from './meta.js';
