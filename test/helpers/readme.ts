/**
 * README examples as tests: how README.md's fenced blocks are read (test/readme.test.ts runs them).
 *
 * Every fenced block in README.md is exactly one of:
 *
 *  - a **session**: its first line starts with `$ `. Each `$ ` line is a command (bash, in a fresh
 *    temporary folder; `raiselint` and `npx raiselint` run this checkout's bin/raiselint.js); the
 *    lines up to the next `$ ` line are what it prints (stdout and stderr as a terminal shows them).
 *    In the expected output a line that is only `...` or `…` stands for any number of lines, and
 *    `...` / `…` inside a line for any text. Paths of the temporary folder and timings (`210 ms`,
 *    `1.2 s`) are normalised on both sides.
 *  - a **file**: its first line is a comment naming the file, `# app.py` / `# pyproject.toml` (the
 *    line is part of the file, as it is when the block is copied), or the block follows a
 *    `<!-- readme-test: file NAME -->` line (for formats without comments: JSON, notebooks). A
 *    session's folder holds the latest version of every file defined above it in the README
 *    (plus `fixtures/`, `test/` and `rules/` of this repository), all dated an hour ago.
 *  - **not run**: the block follows a `<!-- readme-test: skip REASON -->` line (editor and CI
 *    configuration, option summaries, abridged output, sessions that need a real editor).
 *    A block skipped as `option summary (raiselint <command> --help)` is still checked: every
 *    option it names must be in that command's `--help`.
 *
 * A block that is none of these fails the test, naming its line.
 */
export interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  lines: string[];
  /** `skip` reason, `file` name from a marker. */
  skip?: string;
  file?: string;
}

export interface Command {
  line: number;
  cmd: string;
  expected: string[];
}

export type Classified =
  | { kind: 'session'; block: Block; commands: Command[] }
  | { kind: 'file'; block: Block; name: string; text: string }
  | { kind: 'skip'; block: Block; reason: string }
  | { kind: 'unknown'; block: Block };

const MARKER = /^<!--\s*readme-test:\s*(skip|file)\s+(.+?)\s*-->$/;
/** `# name.ext` alone on the first line: a file (an extension is required, no spaces). */
const HEADER = /^#\s+([\w.][\w./-]*\.[A-Za-z0-9]+)$/;

export function readBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.trimStart().startsWith(fence)) body.push(lines[j++]!);
    const block: Block = { line: i + 1, lang: open[3]!.trim(), lines: body };
    let k = i - 1;
    while (k >= 0 && !lines[k]!.trim()) k--;
    const m = k >= 0 ? MARKER.exec(lines[k]!.trim()) : null;
    if (m?.[1] === 'skip') block.skip = m[2];
    if (m?.[1] === 'file') block.file = m[2];
    out.push(block);
    i = j;
  }
  return out;
}

export function classify(block: Block): Classified {
  if (block.skip) return { kind: 'skip', block, reason: block.skip };
  const text = block.lines.join('\n') + '\n';
  if (block.file) return { kind: 'file', block, name: block.file, text };
  const first = block.lines[0] ?? '';
  const header = HEADER.exec(first);
  if (header) return { kind: 'file', block, name: header[1]!, text };
  if (first.startsWith('$ ')) {
    const commands: Command[] = [];
    block.lines.forEach((l, i) => {
      if (l.startsWith('$ ')) commands.push({ line: block.line + 1 + i, cmd: l.slice(2), expected: [] });
      else commands.at(-1)!.expected.push(l);
    });
    return { kind: 'session', block, commands };
  }
  return { kind: 'unknown', block };
}

/** Timings and the temporary folder, normalised the same way in the README and in real output. */
export function normalise(text: string, dir?: string): string {
  let t = text;
  if (dir) t = t.split(`${dir}/`).join('').split(dir).join('.');
  return t
    .replace(/\b\d+(?:\.\d+)?\s?ms\b/g, 'N ms')
    .replace(/\b\d+(?:\.\d+)?\s?s\b(?!-)/g, 'N s')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n+$/, '');
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Does `actual` print what the README shows (`expected`, with its ellipses)? */
export function matches(expected: string, actual: string): boolean {
  const lines = expected.split('\n');
  const parts = lines.map((l, i) => {
    const last = i === lines.length - 1;
    if (l.trim() === '...' || l.trim() === '…') return '(?:[^\\n]*\\n)*?' + (last ? '[^\\n]*' : '');
    const body = l
      .split(/\.\.\.|…/)
      .map(escape)
      .join('[^\\n]*?');
    return body + (last ? '' : '\\n');
  });
  return new RegExp(`^${parts.join('')}$`).test(actual);
}
