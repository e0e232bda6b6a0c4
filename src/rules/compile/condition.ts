/** The raise condition of a compiled rule (src/rules/condition/), from the raising def read in sourceCode. */
import { unknownCondition } from '../condition/compile.js';
import { and } from '../condition/simplify.js';
import type { RaiseCondition } from '../condition/types.js';
import type { RaisingDef } from './source.js';

export function ruleCondition(def: RaisingDef, inferred: boolean, sourceCode: string, row: number): RaiseCondition {
  if (inferred || !def.condition) return unknownCondition('sourceCode shows no def around the raise');
  // A module function indented in the excerpt sits in a block the excerpt does not show (`except ImportError:`, `if sys.platform ...:`).
  const lines = sourceCode.split('\n').slice(0, row + 1).reverse();
  const header = lines.find((l) => new RegExp(`^\\s*(async\\s+)?def\\s+${def.name}\\b`).test(l));
  if (!def.inClass && header && /^\s/.test(header) && !def.condition.unknown) {
    return { ...def.condition, when: and([{ k: 'data', text: 'the def is defined (in a block the excerpt does not show)' }, def.condition.when]) };
  }
  return def.condition;
}
