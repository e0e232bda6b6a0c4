/**
 * src/eslint/verify.ts: suggestions are type-checked in batches (edits that do not overlap applied
 * together, one program), and each answer is what checking that edit alone gives.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { typeChecks, typeChecksAll, type Edit } from '../src/eslint/verify.js';

const dir = mkdtempSync(join(tmpdir(), 'raiselint-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function programOf(text: string): { program: ts.Program; file: string } {
  const file = join(dir, `f${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, text);
  const program = ts.createProgram({ rootNames: [file], options: { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [] } });
  return { program, file: program.getSourceFile(file)!.fileName };
}

/** An edit that replaces the first `find` of `text` with `by`. */
const edit = (text: string, find: string, by: string): Edit => {
  const at = text.indexOf(find);
  return { range: [at, at + find.length], text: by };
};

describe('typeChecksAll', () => {
  const text = 'declare function f(s: string): number;\nconst a = f("x");\nconst b = f("y");\nexport const c: number = a + b;\n';
  const good1 = edit(text, 'const a = f("x");', 'let a = 0;\ntry {\n  a = f("x");\n} catch {\n  a = -1;\n}');
  const good2 = edit(text, 'const b = f("y");', 'const b = f("y") ?? 0;');
  // Leaves `b` unassigned when the catch falls through: "used before being assigned".
  const bad = edit(text, 'const b = f("y");', 'let b: number;\ntry {\n  b = f("y");\n} catch {}');

  it('edits that do not overlap and add no error: all pass (checked together)', () => {
    const { program, file } = programOf(text);
    expect(typeChecksAll(program, file, [good1, good2])).toEqual([true, true]);
  });

  it('one edit of a batch adds an error: each is then checked alone, as typeChecks says', () => {
    const { program, file } = programOf(text);
    const got = typeChecksAll(program, file, [bad, good1]);
    expect(got).toEqual([false, true]);
    expect(got).toEqual([typeChecks(program, file, bad.range, bad.text), typeChecks(program, file, good1.range, good1.text)]);
  });

  it('overlapping edits (two fixes of one statement) are checked apart', () => {
    const { program, file } = programOf(text);
    expect(typeChecksAll(program, file, [good2, bad, good1])).toEqual([true, false, true]);
  });

  it('a file that has errors already: an edit passes when it adds none', () => {
    const broken = `${text}export const d: string = 1;\n`;
    const { program, file } = programOf(broken);
    expect(
      typeChecksAll(program, file, [edit(broken, 'const a = f("x");', 'const a = f("x") ?? 0;'), edit(broken, 'const b = f("y");', 'const b = f("z");')]),
    ).toEqual([true, true]);
    expect(typeChecksAll(program, file, [edit(broken, 'const b = f("y");', 'let b: number;\ntry {\n  b = f("y");\n} catch {}')])).toEqual([false]);
  });
});
