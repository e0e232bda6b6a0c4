/**
 * The prefilter's scans (src/prefilter/index.ts): when the shortest name of any role is as short as
 * the shortest call or method name, the first stage would sample the same bytes, so a file is
 * scanned once for every name instead of twice (the first stage's names, then every name). The
 * verdicts and the names found are the two-stage scan's, computed here with the name tables.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NameTable } from '../src/prefilter/nametable.js';
import { Prefilter, ROLE_CALL, ROLE_CLASS, ROLE_DIRECTIVE, ROLE_METHOD, ROLE_OTHER, rolesCanMatch, type PrefilterSpec } from '../src/prefilter/index.js';

const FIRST = ROLE_CALL | ROLE_METHOD | ROLE_DIRECTIVE;

/** The two-stage verdict: the first stage's names, then every name (a spec without needs: the roles decide). */
function twoStage(spec: PrefilterSpec, bytes: Buffer): string[] | null {
  const first = new Map<string, number>();
  NameTable.build(spec.names.filter(([, r]) => (r & FIRST) !== 0)).scanBytes(bytes, bytes.length, undefined, first);
  if (!first.size) return null;
  const found = new Map<string, number>();
  NameTable.build(spec.names).scanBytes(bytes, bytes.length, undefined, found);
  let roles = 0;
  for (const r of found.values()) roles |= r;
  return rolesCanMatch(roles) ? [...found.keys()] : null;
}

const FILES = [
  'x = 1\nprint(x)\n',
  'import os\nos.eq(a, b)\n',
  'class A(Swarm):\n    def go(self):\n        self.eq(1)\n',
  'w = Swarm()\nw.ne()\n',
  '# raiselint: ignore[x]\n',
  'eqx = ne_ + Swarm_\n',
  'a.save_state()\n',
  'Swarm.save_state # eq\n',
  'from m import Ab\nAb().save_state()\n',
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe('prefilter scans', () => {
  it('scans once for every name when no name is shorter than the shortest call or method name', () => {
    const spec: PrefilterSpec = {
      names: [
        ['Swarm', ROLE_CLASS],
        ['eq', ROLE_CALL],
        ['ne', ROLE_METHOD],
        ['raiselint', ROLE_DIRECTIVE],
        ['save_state', ROLE_METHOD],
        ['xy', ROLE_OTHER],
      ],
    };
    // Enough names that no needle search stands in for the first stage.
    for (let i = 0; i < 700; i++) spec.names.push([`call_${i}`, ROLE_CALL]);
    const p = Prefilter.build(spec);
    for (const text of FILES) {
      const bytes = Buffer.from(text);
      const scans = vi.spyOn(NameTable.prototype, 'scanBytes');
      const got = p.candidateBytes(bytes, bytes.length);
      expect(scans, text).toHaveBeenCalledTimes(1);
      scans.mockRestore();
      expect(got, text).toEqual(twoStage(spec, bytes));
    }
    // Both verdicts occur.
    expect(FILES.map((t) => p.candidateText(t) !== null)).toEqual([false, true, true, true, true, false, false, true, false]);
  });

  it('keeps the sparser first stage when a name of another role is shorter', () => {
    const spec: PrefilterSpec = {
      names: [
        ['Ab', ROLE_CLASS],
        ['Swarm', ROLE_CLASS],
        ['save_state', ROLE_METHOD],
        ['raiselint', ROLE_DIRECTIVE],
      ],
    };
    for (let i = 0; i < 700; i++) spec.names.push([`call_${i}`, ROLE_CALL]);
    const p = Prefilter.build(spec);
    const calls: number[] = [];
    for (const text of FILES) {
      const bytes = Buffer.from(text);
      const scans = vi.spyOn(NameTable.prototype, 'scanBytes');
      const got = p.candidateBytes(bytes, bytes.length);
      calls.push(scans.mock.calls.length);
      scans.mockRestore();
      expect(got, text).toEqual(twoStage(spec, bytes));
    }
    // A file with a first-stage name is scanned again for every name.
    expect(calls).toEqual(FILES.map((t) => (/save_state|raiselint/.test(t) ? 2 : 1)));
  });
});
