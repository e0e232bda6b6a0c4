/**
 * Finding rules from what a user has in hand: a rule id, a runtime error message
 * (`NotImplementedError: Agent save_state is not yet implemented.`), or a Python traceback.
 * Messages are matched with the record's `messagePattern` (a regex), else its `errorMessage`.
 */
import { compileMessagePattern } from '../records/pattern.js';
import { splitQualified } from './names.js';
import type { Rule } from './types.js';

/** A rule by id, record id or slug (case-insensitive; a slug must be unambiguous). */
export function findRuleById(rules: Rule[], query: string): Rule | undefined {
  const q = query.trim().toLowerCase();
  const exact = rules.find((r) => r.id.toLowerCase() === q) ?? rules.find((r) => r.recordId.toLowerCase() === q);
  if (exact) return exact;
  const bySlug = rules.filter((r) => r.record.slug.toLowerCase() === q);
  return bySlug.length === 1 ? bySlug[0] : undefined;
}

/** Ids close to the query, for "did you mean". */
export function similarIds(rules: Rule[], query: string, max = 3): string[] {
  const q = query.toLowerCase();
  const prefixed = rules.filter((r) => r.id.toLowerCase().startsWith(q)).map((r) => r.id).sort();
  if (prefixed.length) return prefixed.slice(0, max);
  const scored = rules.map((r) => ({ id: r.id, d: editDistance(q, r.id.toLowerCase()) }));
  scored.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
  return scored.filter((s) => s.d <= Math.max(3, Math.floor(q.length / 3))).slice(0, max).map((s) => s.id);
}

/** Levenshtein distance (insertions, deletions, substitutions), for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/**
 * A Python `re` pattern as a JavaScript RegExp (named groups, `\A`/`\Z`, leading inline flags), or
 * undefined when it cannot be compiled.
 */
export function pythonRegex(pattern: string): RegExp | undefined {
  let flags = '';
  let p = pattern;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(p);
  if (inline) {
    p = p.slice(inline[0].length);
    for (const f of inline[1]!) if (f === 'i' || f === 'm' || f === 's') flags += f;
  }
  p = p
    .replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>')
    .replace(/\\A/g, '^')
    .replace(/\\Z/g, '$');
  try {
    return new RegExp(p, flags);
  } catch {
    return undefined;
  }
}

export interface Frame {
  file: string;
  line: number;
  name: string;
}

/** What a runtime error says: the class as printed (may be qualified), the message, and the traceback's frames. */
export interface RuntimeError {
  errorClass?: string;
  message: string;
  frames: Frame[];
}

const EXC_LINE = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::(?: (.*))?)?$/;
const EXC_NAME = /(Error|Exception|Warning|Exit|Interrupt|Iteration|Group|Timeout)$/;
const FRAME = /^\s*File "(.*)", line (\d+)(?:, in (.*))?$/;
const HEADERS = /^(Traceback \(most recent call last\):|During handling of the above exception|The above exception was the direct cause)/;

/** `Class: message`, `Class` alone (when it looks like an exception name), or just `message`. */
export function parseErrorText(text: string): RuntimeError {
  const t = text.trim();
  const [first = '', ...rest] = t.split(/\r?\n/);
  const m = EXC_LINE.exec(first.trim());
  if (m) {
    const name = m[1]!;
    const looksLikeClass = m[2] !== undefined ? name.includes('.') || /^[A-Z]/.test(name) : EXC_NAME.test(name);
    if (looksLikeClass) return { errorClass: name, message: [m[2] ?? '', ...rest].join('\n').trim(), frames: [] };
  }
  return { message: t, frames: [] };
}

/** Strips the `|` gutter that exception groups print. */
function ungutter(line: string): string {
  return line.replace(/^\s*(?:\|\s?)+/, (g) => (g.includes('|') ? '' : g));
}

/**
 * The last exception of a traceback: the line `Module.ErrorClass: message` that follows the frames
 * (its message may continue on later lines), with the frames before it. Undefined when there is none.
 */
export function parseTraceback(text: string): RuntimeError | undefined {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').map(ungutter);
  let best: RuntimeError | undefined;
  let frames: Frame[] = [];
  let inFrames = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (HEADERS.test(line.trim())) {
      if (/^Traceback/.test(line.trim())) {
        frames = [];
        inFrames = true;
      }
      continue;
    }
    const f = FRAME.exec(line);
    if (f) {
      frames.push({ file: f[1]!, line: Number(f[2]), name: (f[3] ?? '').trim() });
      inFrames = true;
      continue;
    }
    if (!inFrames || /^\s/.test(line) || !line.trim()) continue;
    const m = EXC_LINE.exec(line.trim());
    if (!m || HEADERS.test(line)) continue;
    // The exception line: the message goes on until a blank line or the next traceback.
    const msg = [m[2] ?? ''];
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() && !HEADERS.test(lines[j]!.trim()) && !/^\s*\+[-+]/.test(lines[j]!)) msg.push(lines[j++]!);
    best = { errorClass: m[1], message: msg.join('\n').trim(), frames };
    inFrames = false;
    i = j - 1;
  }
  if (best) return best;
  // No traceback header: the last line that looks like `SomeError: message`.
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!.trim();
    const m = EXC_LINE.exec(l);
    if (m && EXC_NAME.test(m[1]!)) return { errorClass: m[1], message: (m[2] ?? '').trim(), frames: [] };
  }
  return undefined;
}

export interface RuleMatch {
  rule: Rule;
  score: number;
  /** Why it matched, for the user. */
  reasons: string[];
  /** True when the message matched (not only the class or location). */
  byMessage: boolean;
}

/** The rule's error class is `cls` (`builtins.` or a module prefix aside: the same class name). */
export function classMatches(rule: Rule, cls: string): boolean {
  const given = cls.replace(/^builtins\./, '');
  if (rule.errorClass === given || rule.record.errorClass === given) return true;
  return splitQualified(rule.errorClass).name === splitQualified(given).name;
}

/** The raising file as a path suffix (`autogen_ext/runtimes/grpc/_worker_runtime.py`). */
function moduleFile(rule: Rule): string {
  return `${rule.raiser.module.replace(/\./g, '/')}.py`;
}

/** Rules whose record describes this runtime error, best first. */
export function matchRuntimeError(rules: Rule[], err: RuntimeError): RuleMatch[] {
  const out: RuleMatch[] = [];
  const msg = err.message.trim();
  for (const rule of rules) {
    const reasons: string[] = [];
    let score = 0;
    let byMessage = false;
    if (err.errorClass) {
      if (!classMatches(rule, err.errorClass)) continue;
      score += 1;
      reasons.push(`error class ${rule.errorClass}`);
    }
    if (msg) {
      // A linear-time engine: a record's pattern is untrusted (see records/pattern.ts).
      const re = rule.record.messagePattern ? compileMessagePattern(rule.record.messagePattern) : undefined;
      if (re && typeof re !== 'string' && re.test(msg)) {
        score += 10;
        byMessage = true;
        reasons.push(`message matches the pattern /${rule.record.messagePattern}/`);
      } else if (msg === rule.record.errorMessage.trim() || msg.includes(rule.record.errorMessage.trim())) {
        score += 10;
        byMessage = true;
        reasons.push('message equals the recorded message');
      } else if (msg.length >= 8 && rule.record.errorMessage.includes(msg)) {
        score += 6;
        byMessage = true;
        reasons.push('message is part of the recorded message');
      }
    }
    const file = moduleFile(rule);
    const def = rule.raiser.qualname.split('.').pop();
    for (const f of err.frames) {
      const path = f.file.replace(/\\/g, '/');
      if (!path.endsWith(`/${file}`) && path !== file) continue;
      if (f.line === rule.raiser.line) {
        score += 5;
        reasons.push(`traceback frame ${f.file}:${f.line} is the recorded raise`);
      } else if (f.name === def) {
        score += 2;
        reasons.push(`traceback frame in ${def}() of ${file}`);
      }
      break;
    }
    if (!byMessage && msg && score < 5) continue; // a message was given and this record's does not match it
    if (!score) continue;
    out.push({ rule, score, reasons, byMessage });
  }
  return out.sort((a, b) => b.score - a.score || (a.rule.id < b.rule.id ? -1 : 1));
}
