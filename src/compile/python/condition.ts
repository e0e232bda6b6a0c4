/** The raise condition of a compiled rule (src/rules/condition/), from the raising def read in sourceCode. */
import { unknownCondition } from '../condition/compile.js';
import { and } from '../../rules/condition/simplify.js';
import type { RaiseCondition } from '../../rules/condition/types.js';
import type { RaisingDef } from './source.js';

/** The start of a def line, up to its name (`^\s*(async\s+)?def\s+`). */
const DEF_START = /^\s*(?:async\s+)?def\s+/;
const isWordChar = (c: string | undefined) => c !== undefined && /^[A-Za-z0-9_]$/.test(c);

/**
 * `line` is a def of `name`: `^\s*(async\s+)?def\s+<name>\b` without a pattern compiled per name
 * (compiling one per record cost more than all its tests: ~3% of a 10,000-record compile).
 */
function definesName(line: string, name: string): boolean {
  const m = DEF_START.exec(line);
  if (!m || !line.startsWith(name, m[0].length)) return false;
  const end = m[0].length + name.length;
  // `\b` after the name: its last character and the next differ in being word characters (ASCII).
  return isWordChar(line[end - 1]) !== isWordChar(line[end]);
}

export function ruleCondition(def: RaisingDef, inferred: boolean, sourceCode: string, row: number): RaiseCondition {
  if (inferred || !def.condition) return unknownCondition('sourceCode shows no def around the raise');
  // A module function indented in the excerpt sits in a block the excerpt does not show (`except ImportError:`, `if sys.platform ...:`).
  if (def.inClass || def.condition.unknown) return def.condition;
  const lines = sourceCode
    .split('\n')
    .slice(0, row + 1)
    .reverse();
  const header = lines.find((l) => l.includes(def.name) && definesName(l, def.name));
  if (header && /^\s/.test(header)) {
    return { ...def.condition, when: and([{ k: 'data', text: 'the def is defined (in a block the excerpt does not show)' }, def.condition.when]) };
  }
  return def.condition;
}
