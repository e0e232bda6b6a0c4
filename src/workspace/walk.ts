/**
 * The directory walk of discovery: iterative (a tree thousands of folders deep is no stack
 * overflow), directory links not followed unless asked (as Ruff and ripgrep), and when followed
 * each real directory entered once (device + inode), so a link cycle ends. FIFOs, devices and
 * sockets, also behind links, are not source files and are skipped: opening one would hang or
 * read forever. A name that is not valid UTF-8 cannot be opened through a string path: it is a
 * named problem, not an ENOENT.
 */
import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';

/** What the walk does with each entry it finds (the caller's filters: gitignore, excludes). */
export interface WalkVisitor<S> {
  /** A directory to enter? (`here` is the parent's state; returns the child's, or undefined to skip it.) */
  enter(abs: string, display: string, name: string, here: S): S | undefined;
  /** A regular file (or a link to one). */
  file(abs: string, display: string, name: string, here: S): void;
  /** A file name that is not valid UTF-8 (its display uses U+FFFD). */
  badName(abs: string, display: string, here: S): void;
  /**
   * Called with each directory's entry names (read once) before they are visited, with the state
   * `enter` gave it; returns the state its entries see (a folder's own .gitignore applies to
   * them), or undefined to skip its contents (a virtualenv).
   */
  listing?(abs: string, display: string, names: string[], here: S): S | undefined;
  /** A symbolic link to a directory, not followed (without `followLinks`). */
  skippedLink?(display: string): void;
}

export interface WalkOptions {
  /** Follow symbolic links to directories (each real directory once). */
  followLinks?: boolean;
}

function devIno(st: Stats): string {
  return `${st.dev}:${st.ino}`;
}

function statOrUndefined(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** Names in `dir` that are not valid UTF-8 (read again as bytes only when a name shows U+FFFD). */
function undecodable(dir: string, entries: Dirent[]): Set<string> {
  const out = new Set<string>();
  if (!entries.some((e) => e.name.includes('\uFFFD'))) return out;
  try {
    for (const b of readdirSync(dir, { encoding: 'buffer' })) {
      const s = b.toString('utf8');
      if (s.includes('\uFFFD') && !Buffer.from(s, 'utf8').equals(b)) out.add(s);
    }
  } catch {
    // the folder went away: nothing to report
  }
  return out;
}

/**
 * What `join(dir, name)` puts before `name`, for any entry name a directory listing gives (never
 * `.` nor `..`, no separator): `src/` for `./src`, nothing for `.`. One `join` per folder instead
 * of two per entry (on a few thousand files they cost ~10 ms: `join` normalizes the whole path).
 */
function prefixOf(dir: string): string {
  return join(dir, 'x').slice(0, -1);
}

interface Frame<S> {
  abs: string;
  display: string;
  state: S;
}

/** Walks `root` (a directory) depth-first; `state` is threaded from parent to child by `visitor.enter` and `visitor.listing`. */
export function walkTree<S>(root: string, display: string, state: S, visitor: WalkVisitor<S>, opts: WalkOptions = {}): void {
  const seen = new Set<string>();
  if (opts.followLinks) {
    const st = statOrUndefined(root);
    if (st) seen.add(devIno(st));
  }
  const stack: Frame<S>[] = [{ abs: root, display, state }];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir.abs, { withFileTypes: true });
    } catch {
      continue; // vanished or unreadable folder: nothing in it to check
    }
    const state = visitor.listing
      ? visitor.listing(
          dir.abs,
          dir.display,
          entries.map((e) => e.name),
          dir.state,
        )
      : dir.state;
    if (state === undefined) continue;
    const bad = undecodable(dir.abs, entries);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const children: Frame<S>[] = [];
    // `join(dir, name)` for every entry, normalizing the folder's path once (see prefixOf).
    const absAt = prefixOf(dir.abs);
    const shownAt = prefixOf(dir.display);
    for (const e of entries) {
      const abs = absAt + e.name;
      const shown = shownAt + e.name;
      if (bad.has(e.name)) {
        visitor.badName(abs, shown, state);
        continue;
      }
      let isDir = e.isDirectory();
      let st: Stats | undefined;
      if (e.isSymbolicLink()) {
        st = statOrUndefined(abs);
        if (st?.isDirectory()) {
          if (!opts.followLinks) {
            visitor.skippedLink?.(shown);
            continue;
          }
          isDir = true;
        } else if (st && !st.isFile())
          continue; // a link to a FIFO, device or socket
        else {
          // A link to a file, or a dangling one (reported as unreadable when checked).
          visitor.file(abs, shown, e.name, state);
          continue;
        }
      }
      if (isDir) {
        if (opts.followLinks) {
          st ??= statOrUndefined(abs);
          if (!st || seen.has(devIno(st))) continue;
          seen.add(devIno(st));
        }
        const next = visitor.enter(abs, shown, e.name, state);
        if (next !== undefined) children.push({ abs, display: shown, state: next });
      } else if (e.isFile()) visitor.file(abs, shown, e.name, state);
      // FIFOs, devices, sockets: not source files.
    }
    // Children in reverse so that the first in name order is walked first.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}
