/**
 * What the semantic model shares instead of copying (src/semantic/env.ts, src/rules/classes.ts):
 * an environment's clone shares its variables until either writes, and merges keep a type met on
 * every side; a file's class registry is an overlay over the rules' registry, not a copy. Each
 * must answer exactly as a copy would: checked here against plain copies.
 */
import { describe, expect, it } from 'vitest';
import { ClassRegistry, newClassInfo } from '../src/rules/classes.js';
import { Env } from '../src/semantic/env.js';
import { typeKey, union, type Type } from '../src/semantic/types.js';

const T = (...keys: string[]): Type => keys.map((key) => ({ kind: 'inst', key }));
const dump = (e: Env) => [...e.vars].map(([k, t]) => `${k}=${typeKey(t)}`).sort();

/** The merge as it was before sharing: every key's types, as a union. */
function mergeByCopy(envs: Env[]): string[] {
  const keys = new Set<string>();
  for (const e of envs) for (const k of e.vars.keys()) keys.add(k);
  const out: string[] = [];
  for (const k of keys) {
    const ts = envs.map((e) => e.lookup(k)).filter((t): t is Type => !!t);
    if (k.includes('.') && ts.length < envs.length) continue;
    out.push(`${k}=${typeKey(union(...ts))}`);
  }
  return out.sort();
}

describe('Env copy on write', () => {
  it("a clone and its original never see each other's writes", () => {
    const base = new Env();
    base.set('a', T('A'));
    base.put('a.x', T('X'));
    const c1 = base.clone();
    const c2 = c1.clone();
    c1.set('b', T('B'));
    expect(dump(base)).toEqual(['a.x=i:X{}-', 'a=i:A{}-']);
    expect(dump(c2)).toEqual(['a.x=i:X{}-', 'a=i:A{}-']);
    base.set('a', T('A2')); // rebinding forgets the path, in base only
    expect(dump(base)).toEqual(['a=i:A2{}-']);
    expect(dump(c1)).toEqual(['a.x=i:X{}-', 'a=i:A{}-', 'b=i:B{}-']);
    expect(dump(c2)).toEqual(['a.x=i:X{}-', 'a=i:A{}-']);
    c2.remove('a');
    expect(c2.lookup('a')).toBeUndefined();
    expect(c1.lookup('a')).toEqual(T('A'));
  });

  it('set forgets the paths of a name, also of a clone that only shares them', () => {
    const e = new Env();
    e.put('self.x', T('X'));
    e.put('selfish', T('S'));
    const c = e.clone();
    c.set('self', T('C'));
    expect(dump(c)).toEqual(['self=i:C{}-', 'selfish=i:S{}-']);
    expect(dump(e)).toEqual(['self.x=i:X{}-', 'selfish=i:S{}-']);
    // A path set through set() is a path too.
    const f = new Env();
    f.set('p.q', T('Q'));
    f.set('p', T('P'));
    expect(dump(f)).toEqual(['p=i:P{}-']);
  });

  it('merge gives what a merge of copies gives', () => {
    // Seeded variations: shared types, different types, keys on one side, paths on one side, outer lookups.
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const pool: Type[] = [T('A'), T('B'), T('A', 'B'), T('B', 'A'), [], T('C', 'C')];
    for (let round = 0; round < 300; round++) {
      const outer = new Env();
      outer.set('o', pool[rnd(pool.length)]!);
      const base = new Env(new Map(), outer);
      for (const k of ['a', 'b', 'a.x', 'c']) if (rnd(2)) base.put(k, pool[rnd(pool.length)]!);
      const envs = Array.from({ length: 2 + rnd(3) }, () => {
        const e = base.clone();
        for (const k of ['a', 'b', 'a.x', 'd', 'o']) if (!rnd(3)) e.put(k, pool[rnd(pool.length)]!);
        return e;
      });
      const merged = Env.merge(envs)!;
      expect(dump(merged)).toEqual(mergeByCopy(envs));
      expect(Env.sameOn(base, merged)).toBe(dump(base).every((kv) => dump(merged).includes(kv)));
    }
  });
});

describe('ClassRegistry overlay', () => {
  it('answers as a copy of its parent plus its own classes, and leaves the parent as it was', () => {
    const parent = new ClassRegistry();
    parent.add(newClassInfo('pkg.mod.Base', { aliases: ['pkg.Base'] }));
    parent.add(newClassInfo('pkg.mod.Thing', { bases: ['pkg.mod.Base'] }));
    parent.add(newClassInfo('other.Thing'));
    const child = parent.overlay();
    expect(child.get('pkg.mod.Thing')?.key).toBe('pkg.mod.Thing');
    expect(child.resolve('pkg.Base')).toBe('pkg.mod.Base');
    expect(child.resolve('pkg.Thing')).toBe('pkg.mod.Thing');
    expect(child.mro('pkg.mod.Thing').map((c) => c.key)).toEqual(['pkg.mod.Thing', 'pkg.mod.Base']);

    const local = '<local>f.py#Thing@3';
    child.add(newClassInfo(local, { name: 'Thing', module: 'f.py', bases: ['pkg.mod.Thing'], aliases: ['here.Thing'] }));
    expect(child.isSubclass(local, 'pkg.mod.Base')).toBe(true);
    expect(child.resolve('here.Thing')).toBe(local);
    expect(child.resolve('other.Thing')).toBe('other.Thing');
    expect(child.all().map((c) => c.key)).toEqual(['pkg.mod.Base', 'pkg.mod.Thing', 'other.Thing', local]);
    // The parent does not see the overlay's class, under any name.
    expect(parent.get(local)).toBeUndefined();
    expect(parent.resolve('here.Thing')).toBeUndefined();
    expect(parent.all().map((c) => c.key)).toEqual(['pkg.mod.Base', 'pkg.mod.Thing', 'other.Thing']);
    // A second overlay starts from the parent alone.
    expect(parent.overlay().resolve('here.Thing')).toBeUndefined();
    expect(() => child.snapshot()).toThrow(/overlay/);
  });

  it("merges a class the parent holds into its own copy, never into the parent's", () => {
    const parent = new ClassRegistry();
    parent.add(newClassInfo('pkg.mod.Base'));
    parent.add(newClassInfo('pkg.mod.Thing', { bases: ['pkg.mod.Base'], init: [{ name: 'a' } as never] }));
    const before = JSON.stringify(parent.get('pkg.mod.Thing'));
    const child = parent.overlay();
    const merged = child.add(
      newClassInfo('pkg.mod.Thing', { aliases: ['here.Thing'], bases: ['other.Base'], init: [{ name: 'b' } as never], methods: { m: { calls: [] } as never } }),
    );
    expect(JSON.stringify(parent.get('pkg.mod.Thing'))).toBe(before);
    expect(parent.resolve('here.Thing')).toBeUndefined();
    expect(merged).not.toBe(parent.get('pkg.mod.Thing'));
    expect(child.get('pkg.mod.Thing')).toBe(merged);
    expect(merged.bases).toEqual(['pkg.mod.Base', 'other.Base']);
    expect(merged.init.map((p) => p.name)).toEqual(['a', 'b']);
    expect(Object.keys(merged.methods)).toEqual(['m']);
    expect(child.resolve('here.Thing')).toBe('pkg.mod.Thing');
    // The copy keeps the class's place, once, in what the overlay lists.
    expect(child.all().map((c) => c.key)).toEqual(['pkg.mod.Base', 'pkg.mod.Thing']);
    expect(child.all()[1]).toBe(merged);
    expect(child.resolve('pkg.Thing')).toBe('pkg.mod.Thing');
    expect(child.mro('pkg.mod.Thing').map((c) => c.key)).toEqual(['pkg.mod.Thing', 'pkg.mod.Base']);
  });
});
