/** The raise condition of a compiled rule (src/rules/condition/), from the raising def read in sourceCode. */
import { unknownCondition } from '../condition/compile.js';
import { and } from '../condition/simplify.js';
import type { RaiseCondition } from '../condition/types.js';
import type { RaisingDef } from './source.js';

export function ruleCondition(def: RaisingDef, inferred: boolean, sourceCode: string, row: number): RaiseCondition {
  if (inferred || !def.condition) return unknownCondition('sourceCode shows no def around the raise');
  // A module function indented in the excerpt sits in a block the excerpt does not show (`except ImportError:`, `if sys.platform ...:`).
  if (def.inClass || def.condition.unknown) return def.condition;
  const lines = sourceCode.split('\n').slice(0, row + 1).reverse();
  const defLine = new RegExp(`^\\s*(async\\s+)?def\\s+${def.name}\\b`);
  // The regular expression only on lines that name the def (one compiled pattern per record costs more than its tests).
  const header = lines.find((l) => l.includes(def.name) && defLine.test(l));
  if (header && /^\s/.test(header)) {
    return { ...def.condition, when: and([{ k: 'data', text: 'the def is defined (in a block the excerpt does not show)' }, def.condition.when]) };
  }
  return def.condition;
}
