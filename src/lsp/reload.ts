/**
 * Configuration and watching: the rules are rebuilt when a `--records` path or a dataset a config
 * names changes, and configs are read again when a config file changes, seen on disk (./watch.ts)
 * or by the client (workspace/didChangeWatchedFiles, registered dynamically). After either, every
 * open document is checked again.
 */
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, type DidChangeWatchedFilesParams, type FileSystemWatcher } from 'vscode-languageserver/node';
import { CONFIG_FILE_NAMES } from '../config/resolve.js';
import { catalogRules } from '../engine/batch.js';
import { DatasetError, warningLines } from '../records/load.js';
import { CuratedDataError } from '../compile/index.js';
import type { ServerContext, ServerOptions } from './context.js';
import { isUnder, watchPaths, type Watcher } from './watch.js';
import { forgetPins, isPinFile, PIN_FILES_GLOB } from '../config/pins.js';
import { importedModules, type Derived } from '../records/generate/derive.js';
import { deriveForTexts } from '../engine/derive.js';
import { Workspace } from './workspace.js';

/** What the client watches for the server (dynamic registration): the `--records` paths, config files, datasets configs may name. */
export function fileWatchers(opts: ServerOptions, relativeOk: boolean): FileSystemWatcher[] {
  const watchers: FileSystemWatcher[] = opts.records.map((p) => {
    const isFile = statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
    const base = isFile ? pathToFileURL(p).href.replace(/\/[^/]*$/, '') : pathToFileURL(p).href;
    const pattern = isFile ? p.split(/[\\/]/).pop()! : '**/*.{jsonl,json,ndjson}';
    return { globPattern: relativeOk ? { baseUri: base, pattern } : `**/${pattern.replace(/^\*\*\//, '')}` };
  });
  if (opts.config !== false) for (const name of CONFIG_FILE_NAMES) watchers.push({ globPattern: `**/${name}` });
  // Datasets named by configs: any JSON Lines file may be one.
  if (opts.config !== false) watchers.push({ globPattern: '**/*.{jsonl,ndjson}' });
  // Version pins (rules that apply to some versions only).
  watchers.push({ globPattern: PIN_FILES_GLOB });
  return watchers;
}

export class RuleReloader {
  /** Datasets a reload was asked for (so checks made while it runs do not ask again). */
  private readonly requested = new Set<string>();
  private reloading: Promise<void> = Promise.resolve();
  /** Modules whose records were derived (or tried), and the derived dataset files in the rules. */
  private readonly derivedModules = new Set<string>();
  private readonly derivedFiles: string[] = [];
  private deriving: Promise<void> = Promise.resolve();
  private recordWatcher: Watcher | undefined;
  private configWatcher: Watcher | undefined;
  private watchedDirs = '';
  private watchedDatasets = '';

  /** `recheckAll`: checks every open document again (after the rules or the configuration changed). */
  constructor(
    private readonly ctx: ServerContext,
    private readonly recheckAll: () => void,
  ) {}

  /** Before a check: datasets the file's config names, and records for the modules it imports (`derive`). */
  beforeCheck(abs: string | undefined, text: string): void {
    this.loadConfigDatasets(abs);
    if (!abs || !Workspace.isJs(abs)) this.deriveFor(abs, text);
  }

  /**
   * Records derived from the installed modules a Python buffer imports and the rules lack (once per
   * module; cached on disk as `raiselint check` caches them): the rules are rebuilt with them.
   */
  private deriveFor(abs: string | undefined, text: string): void {
    const { ws, opts } = this.ctx;
    if (opts.python === false || ws.deriveMode(ws.configOf(abs).cfg) === 'off') return;
    const fresh = [...importedModules(text)].filter((n) => !this.derivedModules.has(n));
    if (!fresh.length) return;
    for (const n of fresh) this.derivedModules.add(n);
    this.deriving = this.deriving.then(async () => {
      let got: Derived | undefined;
      try {
        const imports = fresh.map((n) => `import ${n}`).join('\n');
        got = await deriveForTexts([imports], abs ? [abs] : [], { python: opts.python, cacheDir: opts.cacheDir, bundled: opts.bundled }, [
          ...opts.records,
          ...this.configRecords(),
        ]);
      } catch (e) {
        this.ctx.connection.console.warn(`raiselint: records not derived for ${fresh.join(', ')}: ${(e as Error).message}`);
        return;
      }
      const files = (got?.files ?? []).filter((f) => !this.derivedFiles.includes(f));
      if (!got || !files.length) return;
      this.derivedFiles.push(...files);
      for (const id of got.recordIds) ws.derivedIds.add(id);
      await this.reload(`derived from ${fresh.join(', ')}`);
    });
  }

  /** Before a check: the datasets the file's config names and the rules lack are loaded (once each). */
  loadConfigDatasets(abs: string | undefined): void {
    const { ws } = this.ctx;
    const missing = ws.missingRecords(ws.configOf(abs).cfg).filter((f) => !this.requested.has(f));
    for (const f of missing) this.requested.add(f);
    if (missing.length) void this.reload(`a config names ${missing.map((f) => basename(f)).join(', ')}`, missing);
  }

  /** Rebuilds the rules from `--records` and the configs' datasets (plus `extra`), then re-checks every document. */
  reload(why: string, extra: string[] = []): Promise<void> {
    const { ws, opts, connection } = this.ctx;
    this.reloading = this.reloading.then(async () => {
      const fromConfigs = [...new Set([...this.configRecords(), ...extra])];
      try {
        const next = await catalogRules(
          { records: [...opts.records, ...fromConfigs, ...this.derivedFiles], bundled: opts.bundled, python: opts.python },
          opts.cacheDir,
        );
        ws.setRules(
          next,
          fromConfigs.map((f) => resolve(f)),
        );
        connection.console.info(`raiselint: records reloaded (${why}): ${next.rules.length} rules`);
        for (const l of warningLines(next.warnings)) connection.console.warn(l);
      } catch (e) {
        const msg = e instanceof DatasetError ? e.describe() : e instanceof CuratedDataError ? e.message : `internal error: ${(e as Error).message}`;
        // Keep the datasets that failed out of the wanted set, so a check does not ask again at once.
        ws.setRules(ws.rules, [...ws.datasets().filter((f) => !opts.records.includes(f)), ...extra]);
        this.ctx.showError(`raiselint: records not reloaded, keeping the previous rules: ${msg}`);
        return;
      }
      this.rewatch();
      this.recheckAll();
    });
    return this.reloading;
  }

  /** Config files changed: read them again; reload the rules when the datasets they name changed. */
  configChanged(why: string): void {
    const { ws, opts } = this.ctx;
    ws.resetConfig();
    forgetPins();
    this.ctx.forgetShown();
    this.requested.clear();
    this.ctx.connection.console.info(`raiselint: configuration reloaded (${why})`);
    const want = this.configRecords().sort().join('\n');
    const have = ws
      .datasets()
      .filter((f) => !opts.records.includes(f))
      .sort()
      .join('\n');
    if (want !== have) void this.reload('the configuration changed');
    else this.recheckAll();
  }

  /** The client saw files change (workspace/didChangeWatchedFiles). */
  filesChanged(params: DidChangeWatchedFilesParams): void {
    const files = params.changes.filter((c) => c.uri.startsWith('file:')).map((c) => fileURLToPath(c.uri));
    if (this.ctx.opts.config !== false && files.some((f) => CONFIG_FILE_NAMES.includes(basename(f))))
      this.configChanged('a config file changed in the workspace');
    else if (files.some((f) => isPinFile(basename(f)))) {
      forgetPins();
      this.ctx.connection.console.info('raiselint: version pins read again (a pin file changed)');
      this.recheckAll();
    } else if (files.some((f) => isUnder(f, this.ctx.ws.datasets()))) void this.reload('records changed in the workspace');
  }

  /** Asks the client to watch the files the server depends on, when it can register watchers. */
  registerClientWatchers(): void {
    const watched = this.ctx.caps.workspace?.didChangeWatchedFiles;
    if (!watched?.dynamicRegistration) return;
    const watchers = fileWatchers(this.ctx.opts, watched.relativePatternSupport === true);
    if (watchers.length) void this.ctx.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers });
  }

  /** Watches (on disk) the datasets and the folders whose config files apply to open documents. */
  rewatch(): void {
    const { ws, opts } = this.ctx;
    if (!opts.watch) return;
    const datasets = ws.datasets();
    if (datasets.join('\n') !== this.watchedDatasets) {
      this.watchedDatasets = datasets.join('\n');
      this.recordWatcher?.close();
      this.recordWatcher = datasets.length ? watchPaths(datasets, () => void this.reload('records changed on disk')) : undefined;
    }
    if (opts.config === false) return;
    const dirs = new Set<string>();
    for (const doc of this.ctx.documents.all()) {
      const abs = this.ctx.fileOf(doc.uri);
      for (let d = abs ? dirname(abs) : undefined; d; d = dirname(d) === d ? undefined : dirname(d)) dirs.add(d);
    }
    const key = [...dirs].sort().join('\n');
    if (key === this.watchedDirs) return;
    this.watchedDirs = key;
    this.configWatcher?.close();
    this.configWatcher = watchPaths(
      [...dirs].flatMap((d) => CONFIG_FILE_NAMES.map((n) => join(d, n))),
      () => this.configChanged('a config file changed on disk'),
    );
  }

  /** Stops watching (shutdown). */
  close(): void {
    this.recordWatcher?.close();
    this.configWatcher?.close();
  }

  /** Dataset files the configs of the open documents name. */
  private configRecords(): string[] {
    const out = new Set<string>();
    for (const doc of this.ctx.documents.all()) for (const f of this.ctx.ws.configOf(this.ctx.fileOf(doc.uri)).cfg.records) out.add(f);
    return [...out];
  }
}
