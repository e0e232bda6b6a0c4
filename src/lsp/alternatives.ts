/**
 * Every fix strategy the CLI can apply, for the editor: besides the fix a finding carries (the
 * configured `fix-strategy`, `auto` by default), the fixes planned with `--fix-strategy try-except`
 * and `--fix-strategy type-guard` (which gives the direct replacement where the receiver is certainly
 * the raising class). Planned when the editor asks for code actions, once per document version.
 */
import type { Diagnostic, Fix } from '../diagnostics/types.js';
import type { StrategyOption } from '../fix/plan.js';

const OTHER_STRATEGIES: StrategyOption[] = ['try-except', 'type-guard'];

function key(d: Diagnostic): string {
  return `${d.ruleId}\0${d.line}\0${d.column}\0${d.endLine}\0${d.endColumn}`;
}

export class AlternativeFixes {
  private memo: { uri: string; version: number; byKey: Map<string, Fix[]> } | undefined;

  /** `check(strategy)`: the document's findings with the fixes planned for that strategy. */
  constructor(private readonly check: (uri: string, strategy: StrategyOption) => Diagnostic[]) {}

  /** The other strategies' fixes of the finding `d` of document `uri` at `version` (may repeat its own fix: callers drop equal edits). */
  of(uri: string, version: number, d: Diagnostic): Fix[] {
    if (!d.fix || d.fix.strategy === 'remove-ignore') return [];
    if (this.memo?.uri !== uri || this.memo.version !== version) {
      const byKey = new Map<string, Fix[]>();
      for (const s of OTHER_STRATEGIES) {
        for (const o of this.check(uri, s)) {
          if (!o.fix || !o.fix.edits.length) continue;
          const k = key(o);
          byKey.set(k, [...(byKey.get(k) ?? []), o.fix]);
        }
      }
      this.memo = { uri, version, byKey };
    }
    return this.memo.byKey.get(key(d)) ?? [];
  }
}
