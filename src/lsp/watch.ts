/** Watches paths (record datasets, config files; files or folders) and calls back once per burst of changes. */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';

export interface Watcher {
  close(): void;
}

/** `fn`, called once per burst: `settleMs` after the last call. */
function debounce(fn: () => void, settleMs: number): (() => void) & { cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return Object.assign(
    () => {
      cancel();
      timer = setTimeout(() => {
        timer = undefined;
        fn();
      }, settleMs);
    },
    { cancel },
  );
}

/** Whether `file` is one of the watched paths or lies under a watched folder. */
export function isUnder(file: string, paths: string[]): boolean {
  const f = resolve(file);
  return paths.some((p) => {
    const abs = resolve(p);
    return f === abs || f.startsWith(abs.endsWith(sep) ? abs : abs + sep);
  });
}

/**
 * Editors save by writing in place or by renaming a temporary file over the original; watching
 * the file's folder (filtered by name) sees both, and sees a file appear or go. Files are watched
 * through their folders, one watcher per folder; folders are watched recursively.
 */
export function watchPaths(paths: string[], onChange: () => void, settleMs = 100): Watcher {
  const watchers: FSWatcher[] = [];
  const fire = debounce(onChange, settleMs);
  const filesByDir = new Map<string, Set<string>>();
  const add = (w: () => FSWatcher) => {
    try {
      const watcher = w();
      watcher.on('error', () => undefined);
      watchers.push(watcher);
    } catch {
      // A path that cannot be watched still reloads on workspace/didChangeWatchedFiles.
    }
  };
  for (const p of paths) {
    const abs = resolve(p);
    if (existsSync(abs) && statSync(abs).isDirectory()) add(() => watch(abs, { recursive: true }, fire));
    else {
      const names = filesByDir.get(dirname(abs)) ?? new Set<string>();
      names.add(basename(abs));
      filesByDir.set(dirname(abs), names);
    }
  }
  for (const [dir, names] of filesByDir) {
    add(() =>
      watch(dir, (_event, file) => {
        if (file === null || names.has(file.toString())) fire();
      }),
    );
  }
  return {
    close() {
      fire.cancel();
      for (const w of watchers) w.close();
    },
  };
}
