/**
 * Versions: a record that applies to some versions (of Python or of its library) against the
 * project's pins (`requires-python`, `.python-version`, `target-version`, requirements and lock
 * files; read by src/config/pins.ts). PEP 440 specifiers through @renovatebot/pep440.
 */
import { satisfies, validRange } from '@renovatebot/pep440';
import type { VersionNote } from '../types.js';

export interface Pin {
  /** A PEP 440 specifier set (`>=3.10`, `==3.11.*`, `==1.2.3`). */
  spec: string;
  /** Where it was read, for messages: `requires-python >=3.10 (pyproject.toml)`. */
  from: string;
}

/** A project's pins, plain JSON (they travel to worker threads and key the result cache). */
export interface Pins {
  python?: Pin;
  /** By normalised distribution name (lower case, `-` for `_` and `.`). */
  packages: Record<string, Pin>;
}

export type VersionState = 'inside' | 'partial' | 'off' | 'unpinned';

export const PYTHON_SUBJECTS = new Set(['python', 'cpython', 'py']);

export const normaliseName = (n: string) => n.toLowerCase().replace(/[-_.]+/g, '-');

/** Versions around every boundary the specifiers mention (and Python's minors): enough to tell inside, partial and outside apart. */
function candidates(specs: string[], python: boolean): string[] {
  const out = new Set<string>(['0', '999']);
  if (python) for (let m = 0; m <= 20; m++) out.add(`3.${m}.0`).add(`3.${m}.50`).add(`2.7.18`);
  for (const s of specs) {
    for (const m of s.matchAll(/\d+(?:\.\d+)*/g)) {
      const parts = m[0].split('.').map(Number);
      const bump = (i: number, d: number) => parts.map((p, j) => (j < i ? p : j === i ? p + d : 0)).join('.');
      out.add(parts.join('.'));
      for (let i = 0; i < parts.length; i++) {
        out.add(bump(i, 1));
        if (parts[i]! > 0) out.add(`${bump(i, -1)}`).add(`${parts.slice(0, i).concat(parts[i]! - 1).join('.')}.999`);
      }
      out.add(`${parts.join('.')}.1`);
    }
  }
  return [...out];
}

/** How the pinned range lies against `constraint`: wholly inside, partly, outside. */
export function rangeState(constraint: string, pin: Pin | undefined, python: boolean): VersionState {
  if (!pin || !validRange(pin.spec)) return 'unpinned';
  const pinned = candidates([constraint, pin.spec], python).filter((v) => satisfies(v, pin.spec));
  if (!pinned.length) return 'unpinned';
  const inside = pinned.filter((v) => satisfies(v, constraint)).length;
  return inside === pinned.length ? 'inside' : inside === 0 ? 'off' : 'partial';
}

export interface VersionVerdict {
  state: VersionState;
  /** One line: `Python < 3.11 only; requires-python >= 3.10 (pyproject.toml)`. */
  why: string;
}

/** The rule's version notes against the pins: off when one excludes every pinned version, inside when all hold for the whole pinned range. */
export function versionVerdict(notes: VersionNote[], pins: Pins | undefined): VersionVerdict | undefined {
  const usable = notes.filter((n) => validRange(n.constraint));
  if (!usable.length) return undefined;
  const parts: { state: VersionState; why: string }[] = usable.map((n) => {
    const python = PYTHON_SUBJECTS.has(n.subject);
    const pin = python ? pins?.python : pins?.packages[normaliseName(n.subject)];
    const state = rangeState(n.constraint, pin, python);
    const subject = python ? 'Python' : n.subject;
    const pinned = pin ? pin.from : `no ${python ? 'Python version' : `${n.subject} version`} pinned`;
    return { state, why: `${subject} ${n.constraint.replace(/^([<>=!~]+)/, '$1 ')} only; ${pinned}` };
  });
  const order: VersionState[] = ['off', 'unpinned', 'partial', 'inside'];
  const worst = parts.reduce((a, b) => (order.indexOf(b.state) < order.indexOf(a.state) ? b : a));
  return { state: worst.state, why: parts.map((p) => p.why).join('; ') };
}
