/** Rule compilation: the entry points of src/rules/compile/ (one record → one `Rule`). */
export { compileRecord, type CompileOutcome } from './compile/record.js';
export { describeTarget } from './compile/targets.js';
export { versionNotes } from './compile/meta.js';
