/**
 * `raiselint records generate`: error records (upstream format, schemaVersion 2) for every raise
 * site of a public function, method, constructor or property of Python code (./sites.ts), read
 * with the project's parser. A path is a package folder (`site-packages/requests`), a folder of
 * modules and packages (`site-packages`, a repository's `src/`), or, with `stdlib`, the standard
 * library of the project's Python. Records of an installed distribution carry its name and
 * version (from its `*.dist-info`), and each file's content hash; their links point at the
 * installed file. An npm package folder (a package.json with a name) is read as JavaScript: the
 * throw sites of its public API (./npm.ts). Deterministic: the same files give the same bytes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { initParser, parsePython } from '../../parse/parser.js';
import { recordOf, type Origin } from './fields.js';
import { sitesOf } from './sites.js';
import { entryPoints, npmPackageAt, npmSites, NpmModules, type NpmPackage } from './npm.js';
import { npmRecordOf } from './npmfields.js';

/** The dataset's fixed stamp (generated records do not change with the clock). */
export const STAMP = '2026-08-15T17:31:12.345Z';
const SKIP_DIRS = new Set(['test', 'tests', 'idlelib', 'turtledemo', 'site-packages', 'dist-packages', '__pycache__', '__phello__', 'node_modules']);

export interface GenerateInput {
  /** A package folder, a module file, a folder of modules, or the standard library (`stdlib`). */
  path: string;
  stdlib?: { version: string };
  /** Only these top-level modules of the folder. */
  only?: string[];
}

export interface Generated {
  /** Dataset lines (`{"record": {...}, "datasetVersion": ...}`). */
  lines: string[];
  /** Files read and raise sites found. */
  files: number;
}

/** Public module files under `root` (relative, `/`), in walk order: a folder's files, then its sub-packages. */
function publicModules(root: string, top: boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    const dirs: string[] = [];
    for (const n of names) {
      const p = join(dir, n);
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(n) && !n.startsWith('.') && !n.startsWith('_') && !n.includes('-') && existsSync(join(p, '__init__.py'))) dirs.push(n);
      } else if (st.isFile() && n.endsWith('.py') && (!n.startsWith('_') || n === '__init__.py') && !n.includes('-')) {
        // A top-level folder of modules (site-packages) holds no `__init__.py` of its own to count.
        if (!(top && rel === '' && n === '__init__.py')) out.push(rel ? `${rel}/${n}` : n);
      }
    }
    for (const d of dirs) walk(join(dir, d), rel ? `${rel}/${d}` : d);
  };
  walk(root, '');
  return out;
}

interface Dist {
  name: string;
  version: string;
}

/** Installed distributions of an import root, by top-level module name (their `*.dist-info` RECORD or top_level.txt). */
function distributions(root: string): Map<string, Dist> {
  const out = new Map<string, Dist>();
  let names: string[];
  try {
    names = readdirSync(root)
      .filter((n) => n.endsWith('.dist-info') || n.endsWith('.egg-info'))
      .sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const dir = join(root, n);
    const meta = ['METADATA', 'PKG-INFO'].map((f) => join(dir, f)).find((f) => existsSync(f));
    if (!meta) continue;
    const text = readFileSync(meta, 'utf8');
    const name = /^Name:\s*(.+)$/m.exec(text)?.[1]?.trim();
    const version = /^Version:\s*(.+)$/m.exec(text)?.[1]?.trim();
    if (!name || !version) continue;
    const tops = new Set<string>();
    const top = join(dir, 'top_level.txt');
    if (existsSync(top)) for (const l of readFileSync(top, 'utf8').split('\n')) if (l.trim()) tops.add(l.trim());
    const rec = join(dir, 'RECORD');
    if (existsSync(rec)) {
      for (const l of readFileSync(rec, 'utf8').split('\n')) {
        const first = l.split(',')[0]!.split('/')[0]!;
        if (first && !first.includes('.dist-info') && !first.startsWith('..') && first !== '__pycache__') tops.add(first.replace(/\.py$/, ''));
      }
    }
    for (const t of tops) if (!out.has(t)) out.set(t, { name, version });
  }
  return out;
}

function originFor(input: GenerateInput, importRoot: string, dist: Dist | undefined, folder: string): Origin {
  if (input.stdlib) {
    const v = input.stdlib.version;
    return {
      repo: 'python/cpython',
      version: v,
      filePath: (rel) => `Lib/${rel}`,
      url: (rel, s, e) => `https://github.com/python/cpython/blob/v${v}/Lib/${rel}#L${s}-L${e}`,
      tags: ['cpython', 'stdlib'],
    };
  }
  const name = dist?.name ?? folder;
  return {
    repo: `pypi/${name.toLowerCase()}`,
    version: dist?.version ?? '0',
    filePath: (rel) => rel,
    url: (rel, s, e) => `${pathToFileURL(join(importRoot, rel)).href}#L${s}-L${e}`,
    tags: [`dist:${name}`, ...(dist ? [`version:${dist.version}`] : [])],
  };
}

/** An npm package's records (./npm.ts), appended to `lines`; returns the number of files with sites. */
function npmRecords(pkg: NpmPackage, lines: string[]): number {
  const mods = new NpmModules();
  const names = new Map([...entryPoints(pkg)].map(([spec, file]) => [spec, new Set(mods.exportNames(file))]));
  const slugs = new Set<string>();
  const files = new Set<string>();
  for (const site of npmSites(pkg, mods)) {
    files.add(site.file);
    lines.push(JSON.stringify({ record: npmRecordOf(site, pkg, names.get(site.spec) ?? new Set(), slugs, STAMP), datasetVersion: STAMP }));
  }
  return files.size;
}

/** Records of every input, in input then file order. */
export async function generateRecords(inputs: GenerateInput[]): Promise<Generated> {
  await initParser();
  const lines: string[] = [];
  let files = 0;
  for (const input of inputs) {
    const abs = resolve(input.path);
    const npm = input.stdlib ? undefined : npmPackageAt(abs);
    if (npm) {
      files += npmRecords(npm, lines);
      continue;
    }
    // A package folder is read from the folder above it, so its modules are named as they are imported.
    const isFile = abs.endsWith('.py') && statSync(abs).isFile();
    const isPackage = !isFile && !input.stdlib && existsSync(join(abs, '__init__.py'));
    const importRoot = isPackage || isFile ? dirname(abs) : abs;
    const onlyOf = (n: string) =>
      existsSync(join(abs, n, '__init__.py'))
        ? publicModules(join(abs, n), false).map((r) => `${n}/${r}`)
        : existsSync(join(abs, `${n}.py`))
          ? [`${n}.py`]
          : [];
    const rels = isFile
      ? [basename(abs)]
      : input.only
        ? input.only.flatMap(onlyOf)
        : isPackage
          ? publicModules(abs, false).map((r) => `${basename(abs)}/${r}`)
          : publicModules(abs, !input.stdlib);
    const dists = input.stdlib ? new Map<string, Dist>() : distributions(importRoot);
    const slugs = new Set<string>();
    for (const rel of rels) {
      let text: string;
      try {
        text = readFileSync(join(importRoot, rel), 'utf8');
      } catch {
        continue;
      }
      const tree = parsePython(text);
      try {
        const sites = sitesOf(rel, tree.rootNode);
        if (!sites.length) continue;
        files++;
        const top = rel.split('/')[0]!.replace(/\.py$/, '');
        const origin = originFor(input, importRoot, dists.get(top), top);
        const hash = `sha256:${createHash('sha256').update(text).digest('hex')}`;
        const fileLines = text.replace(/\r\n?/g, '\n').split('\n');
        if (fileLines[fileLines.length - 1] === '') fileLines.pop();
        for (const s of sites) {
          const record = recordOf(s, fileLines, origin, slugs, STAMP);
          // The installed file's content hash: a record is of these exact bytes (a rule grounded in another version says so).
          if (!input.stdlib) record.analyzedSha = hash;
          lines.push(JSON.stringify({ record, datasetVersion: STAMP }));
        }
      } finally {
        tree.delete();
      }
    }
  }
  return { lines, files };
}
