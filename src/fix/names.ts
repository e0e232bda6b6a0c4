/**
 * Fix planning: the state of one statement's plan (its indentation, scopes, what makes it unsafe),
 * and how the fix names things: the record's imports, the file's own spelling of a class, the
 * imports a fix adds.
 */
import type { FixEdit } from '../diagnostics/types.js';
import type { Node } from '../parse/parser.js';
import { namedChildren, parentOf } from '../parse/syntax.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { RulePatterns } from '../rules/types.js';
import { BUILTINS } from '../python/builtins.js';
import type { UserFile } from './scope.js';
import type { FixSite, StrategyOption } from './site.js';

export abstract class PlanNames {
  protected readonly indent: string;
  protected readonly unit: string;
  /** `if x: stmt` on one line: the wrap starts after the colon, on a new line. */
  protected readonly inlineBodyAt?: number;
  protected readonly eol: string;
  protected readonly stmt: Node;
  protected readonly scopes: Node[];
  protected readonly unsafe: string[] = [];
  protected display?: string;
  protected readonly imports = new Set<string>();
  protected readonly inString = new Set<number>();

  constructor(
    protected readonly sites: FixSite[],
    protected readonly user: UserFile,
    protected readonly rules: RuleSet,
    protected readonly mode: StrategyOption,
  ) {
    this.stmt = sites[0]!.stmt;
    this.indent = user.text.slice(user.lineStart(this.stmt.startIndex), this.stmt.startIndex);
    const block = parentOf(this.stmt);
    const header = block?.type === 'block' ? parentOf(block) : null;
    this.unit = user.unitFor(this.stmt, header);
    if (header && !/^[ \t]*$/.test(this.indent) && namedChildren(block!).length === 1 && /:\s*$/.test(this.indent)) {
      const headerIndent = user.text.slice(user.lineStart(header.startIndex), header.startIndex);
      const after = user.text.slice(this.stmt.endIndex, user.lineEnd(this.stmt.endIndex));
      if (/^[ \t]*$/.test(headerIndent) && /^[ \t\f]*(#.*)?$/.test(after)) {
        this.unit = /^\t+$/.test(headerIndent) ? '\t' : user.unit;
        this.indent = headerIndent + this.unit;
        this.inlineBodyAt = user.text.lastIndexOf(':', this.stmt.startIndex) + 1;
      }
    }
    this.eol = user.eolAt(this.stmt.startIndex);
    this.scopes = user.scopes.scopesOf(this.stmt);
    for (const at of user.breaksInStrings(this.stmt.startIndex, this.stmt.endIndex)) this.inString.add(at);
  }

  /** The renames of the last binding (its names that would clash with the file's). */
  protected lastRenames = new Map<string, string>();

  protected same(a: string, b: string): boolean {
    if (a === b) return true;
    const ca = this.rules.classes.resolve(a);
    if (ca && ca === this.rules.classes.resolve(b)) return true;
    return this.rules.exceptions.canonical(a) === this.rules.exceptions.canonical(b);
  }

  protected addImport(stmt: string, top: string): void {
    if (this.imports.has(stmt)) return;
    this.imports.add(stmt);
    if (!this.user.importedPackages().has(top)) this.unsafe.push(`adds \`${stmt}\`: this file imports nothing from \`${top}\` yet`);
  }

  /** How the file names the raising class for isinstance (adding the record's import when it has none). */
  protected className(key: string, pats: RulePatterns): string {
    const sp = this.user.spell(key, (a, b) => this.same(a, b));
    if (sp) return sp;
    const name = key.split('.').pop()!;
    const fromRecord = pats.imports.find((imp) => this.same(imp.q, key));
    const stmt = fromRecord?.stmt ?? `from ${key.slice(0, key.length - name.length - 1)} import ${name}`;
    const local = fromRecord?.local ?? name;
    if (this.user.scopes.defines(local, [this.user.root])) {
      this.unsafe.push(`\`${local}\` already names something else in this file`);
      return local;
    }
    this.addImport(stmt, fromRecord?.top ?? key.split('.')[0]!);
    return local;
  }

  /** How the file names the error class for `except`. */
  protected errorName(errorClass: string, sites: FixSite[]): string {
    const exc = this.rules.exceptions;
    const canon = exc.canonical(errorClass);
    if (!canon.includes('.') && BUILTINS.has(canon)) return canon;
    // As the record's handler writes it (the public path), through the record's imports.
    for (const s of sites) {
      const written = s.pattern?.exceptName;
      if (!written) continue;
      const [head, ...rest] = written.split('.');
      const imp = s.pats.imports.find((i) => i.local === head);
      if (!imp) continue;
      const q = [imp.q, ...rest].join('.');
      const spelled = this.user.spell(q, (a, b) => this.same(a, b));
      if (spelled) return spelled;
      if (!this.user.scopes.defines(head!, this.scopes)) {
        this.addImport(imp.stmt, imp.top);
        return written;
      }
    }
    const sp = this.user.spell(canon, (a, b) => this.same(a, b) || exc.canonical(a) === exc.canonical(b));
    if (sp) return sp;
    for (const s of sites) {
      const imp = s.pats.imports.find((i) => exc.canonical(i.q) === canon);
      if (imp && !this.user.scopes.mentions(imp.local)) {
        this.addImport(imp.stmt, imp.top);
        return imp.local;
      }
    }
    if (!canon.includes('.')) {
      this.unsafe.push(`the error class \`${canon}\` is not defined in this file`);
      return canon;
    }
    return this.importAs(canon);
  }

  /**
   * `from <module> import <Name>` for a qualified class, or `... import <Name> as <ModuleName>` when
   * the file already uses the name `<Name>` for something (its own class, a builtin it reads): the
   * import must not change what the rest of the file means.
   */
  private importAs(q: string): string {
    const dot = q.lastIndexOf('.');
    const module = q.slice(0, dot);
    const name = q.slice(dot + 1);
    const top = q.split('.')[0]!;
    if (!this.user.scopes.mentions(name)) {
      this.addImport(`from ${module} import ${name}`, top);
      return name;
    }
    const last = module.split('.').pop()!.replace(/^_+/, '');
    const base = `${last.charAt(0).toUpperCase()}${last.slice(1).replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}${name}`;
    const alias = this.user.scopes.mentions(base) ? this.user.scopes.freshName(base) : base;
    this.addImport(`from ${module} import ${name} as ${alias}`, top);
    return alias;
  }

  protected importEdits(): FixEdit[] {
    if (!this.imports.size) return [];
    const stmts = [...this.imports].sort();
    const out: FixEdit[] = [];
    // Each import goes to its own spot (sections differ by package); equal spots are merged.
    const bySpot = new Map<number, { spot: ReturnType<UserFile['importSpot']>; stmts: string[] }>();
    for (const s of stmts) {
      const spot = this.user.importSpot(s);
      const e = bySpot.get(spot.offset) ?? { spot, stmts: [] };
      e.stmts.push(s);
      bySpot.set(spot.offset, e);
    }
    const eol = this.user.eol;
    for (const { spot, stmts: ss } of bySpot.values()) {
      out.push({ start: spot.offset, end: spot.offset, text: `${spot.before}${ss.join(eol)}${eol}${spot.after}` });
    }
    return out;
  }
}
