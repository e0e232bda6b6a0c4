/**
 * JS/TS buffers of the language server: a buffer is linted as `raiselint check` lints the file
 * (jslint.ts: the same rules, messages and fixes), from the editor's text. Its TypeScript program
 * is its nearest config's options with the buffer (and the other open buffers) read from the
 * editor, not the disk. Programs are rebuilt per check with the previous one as `oldProgram`, and
 * parsed source files are kept while their text (a buffer) or their stat (a file on disk: libs,
 * `node_modules` declarations) is the same, so a check after a keystroke re-parses one file.
 */
import { statSync } from 'node:fs';
import ts from 'typescript';
import type { FileError } from '../diagnostics/types.js';
import type { Rule } from '../rules/types.js';
import { collectJsDirectives } from '../suppress/jsdirectives.js';
import type { RawResult } from './batch.js';
import { ConfigReader } from './jsprogram.js';
import { jsLinter } from './jslint.js';
import { mentions } from './jsrun.js';

interface Parsed {
  /** The buffer's text, or the disk file's size and mtime. */
  sig: string;
  sf: ts.SourceFile;
}

/** Source files parsed at most a few thousand at a time (libs and declarations of a large project). */
const MAX_PARSED = 20_000;

export class JsBuffers {
  private readonly parsed = new Map<string, Parsed>();
  private readonly programs = new Map<string, ts.Program>();
  private configs: ConfigReader;
  private configErrors: FileError[] = [];

  constructor() {
    this.configs = new ConfigReader(this.configErrors, (abs) => abs);
  }

  /** Config files changed on disk: read them again at the next check. */
  resetConfigs(): void {
    this.configErrors = [];
    this.configs = new ConfigReader(this.configErrors, (abs) => abs);
    this.programs.clear();
  }

  /**
   * Lints a buffer. `open`: the texts of the open buffers by path (the linted one included), read
   * instead of the disk. Returns what a check of the file gives before the per-file stage.
   */
  lint(abs: string, display: string, text: string, rules: Rule[], open: Map<string, string>): RawResult {
    const out: RawResult = { diagnostics: [], errors: [], directives: [], text };
    // The CLI's prefilter (jsrun.ts): a file that mentions no rule's names is not linted.
    const seen = mentions(text, new Set(rules.flatMap((r) => r.js?.names ?? [])));
    if (seen.directives) out.directives = collectJsDirectives(text, abs);
    if (!seen.match) return out;
    const config = this.configs.configOf(abs);
    const { options, declarations } = this.configs.read(config);
    const buffers = new Map(open);
    buffers.set(abs, text);
    const program = ts.createProgram({
      rootNames: [...new Set([abs, ...declarations])],
      options,
      host: this.host(options, buffers),
      oldProgram: this.programs.get(config),
    });
    this.programs.set(config, program);
    jsLinter(rules, [program]).lint({ abs, display }, text, out);
    return out;
  }

  private host(options: ts.CompilerOptions, buffers: Map<string, string>): ts.CompilerHost {
    const host = ts.createCompilerHost(options, true);
    const { fileExists, readFile } = host;
    host.fileExists = (f) => buffers.has(f) || fileExists.call(host, f);
    host.readFile = (f) => buffers.get(f) ?? readFile.call(host, f);
    host.getSourceFile = (fileName, version, onError) => {
      const text = buffers.get(fileName);
      const sig = text !== undefined ? `buffer:${text}` : statSig(fileName);
      if (sig === undefined) return undefined;
      const mode = typeof version === 'object' ? `${version.languageVersion}:${version.impliedNodeFormat ?? ''}` : String(version);
      const key = `${mode}\0${fileName}`;
      const known = this.parsed.get(key);
      if (known && known.sig === sig) return known.sf;
      const body = text ?? readFile.call(host, fileName);
      if (body === undefined) {
        onError?.(`cannot read ${fileName}`);
        return undefined;
      }
      const sf = ts.createSourceFile(fileName, body, version, true);
      if (this.parsed.size >= MAX_PARSED) this.parsed.clear();
      this.parsed.set(key, { sig, sf });
      return sf;
    };
    return host;
  }
}

function statSig(f: string): string | undefined {
  try {
    const st = statSync(f);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}
