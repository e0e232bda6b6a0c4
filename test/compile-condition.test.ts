/**
 * A rule's raise condition (src/compile/python/condition.ts): a module function whose def line is
 * indented in the excerpt is defined in a block the excerpt does not show, which the condition
 * says. The def line is found by its shape (`^\s*(async\s+)?def\s+<name>\b`) with no pattern made
 * per record.
 */
import { describe, expect, it } from 'vitest';
import { ruleCondition } from '../src/compile/python/condition.js';
import type { RaisingDef } from '../src/compile/python/source.js';
import type { RaiseCondition } from '../src/rules/condition/types.js';

const when: RaiseCondition = { params: [], entries: [], when: true } as unknown as RaiseCondition;
const def = (name: string): RaisingDef => ({ name, inClass: false, decorators: [], classBases: [], otherNames: [], condition: when });
const NOTE = 'the def is defined (in a block the excerpt does not show)';
const noted = (c: RaiseCondition) => JSON.stringify(c.when).includes(NOTE);

describe('rule condition of a module function', () => {
  it('notes a def indented in the excerpt, found by its def line', () => {
    const code = (header: string) => ['if sys.platform == "win32":', header, '        raise OSError("no")'].join('\n');
    expect(noted(ruleCondition(def('load'), false, code('    def load(p):'), 2))).toBe(true);
    expect(noted(ruleCondition(def('load'), false, code('    async  def\tload():'), 2))).toBe(true);
    expect(noted(ruleCondition(def('café'), false, code('    def café():'), 2))).toBe(false); // `\b` is ASCII: no boundary after é before (
    expect(noted(ruleCondition(def('load'), false, code('    def load_all(p):'), 2))).toBe(false);
    expect(noted(ruleCondition(def('load'), false, code('    x = load(p)'), 2))).toBe(false);
    expect(noted(ruleCondition(def('load'), false, ['def load(p):', '    raise OSError("no")'].join('\n'), 1))).toBe(false);
    // The nearest def line above the raise decides.
    expect(noted(ruleCondition(def('load'), false, ['    def load(p):', '        pass', 'def load(p):', '    raise OSError("no")'].join('\n'), 3))).toBe(false);
  });

  it('makes no regular expression per record', () => {
    const Real = globalThis.RegExp;
    let made = 0;
    globalThis.RegExp = new Proxy(Real, {
      construct(target, args: [string, string?]) {
        made++;
        return new target(...args);
      },
    });
    try {
      for (const name of ['a', 'b', 'c']) ruleCondition(def(name), false, `if x:\n    def ${name}():\n        raise E()`, 2);
    } finally {
      globalThis.RegExp = Real;
    }
    expect(made).toBe(0);
  });
});
