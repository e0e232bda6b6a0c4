/** Files claimed from both ends of the list (src/engine/claims.ts): every file once, none twice. */
import { describe, expect, it } from 'vitest';
import { claim, claimsBuffer } from '../src/engine/claims.js';

describe('claims from both ends', () => {
  it('the front takes 0, 1, ...; the back takes n-1, n-2, ...; together every index once, then none', () => {
    const b = claimsBuffer();
    const got: number[] = [];
    const sides = ['front', 'back', 'back', 'front', 'back', 'front', 'front'] as const;
    for (const side of sides) {
      const k = claim(b, 6, side);
      if (k !== undefined) got.push(k);
    }
    expect(got).toEqual([0, 5, 4, 1, 3, 2]);
    expect(claim(b, 6, 'front')).toBeUndefined();
    expect(claim(b, 6, 'back')).toBeUndefined();
  });

  it('one side alone takes the whole list in its order; an empty list gives none', () => {
    const b = claimsBuffer();
    expect(Array.from({ length: 4 }, () => claim(b, 3, 'back'))).toEqual([2, 1, 0, undefined]);
    expect(claim(claimsBuffer(), 0, 'front')).toBeUndefined();
  });
});
