/** Watches record dataset paths (files or folders) and calls back once per burst of changes. */
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
  return Object.assign(() => {
    cancel();
    timer = setTimeout(() => {
      timer = undefined;
      fn();
    }, settleMs);
  }, { cancel });
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
 * the file's folder (filtered by name) sees both. Folders are watched recursively.
 */
export function watchPaths(paths: string[], onChange: () => void, settleMs = 100): Watcher {
  const watchers: FSWatcher[] = [];
  const fire = debounce(onChange, settleMs);
  for (const p of paths) {
    const abs = resolve(p);
    const isDir = existsSync(abs) && statSync(abs).isDirectory();
    try {
      if (isDir) watchers.push(watch(abs, { recursive: true }, fire));
      else {
        const name = basename(abs);
        watchers.push(watch(dirname(abs), (_event, file) => {
          if (file === null || file.toString() === name) fire();
        }));
      }
    } catch {
      // A path that cannot be watched still reloads on workspace/didChangeWatchedFiles.
    }
  }
  for (const w of watchers) w.on('error', () => undefined);
  return {
    close() {
      fire.cancel();
      for (const w of watchers) w.close();
    },
  };
}

/**
 * Watches folders (not recursively) for files with one of `names` appearing, changing or going:
 * the config files that apply to a document live in its folder or one above it.
 */
export function watchConfigDirs(dirs: string[], names: string[], onChange: () => void, settleMs = 100): Watcher {
  const watchers: FSWatcher[] = [];
  const fire = debounce(onChange, settleMs);
  for (const dir of dirs) {
    try {
      const w = watch(dir, (_event, file) => {
        if (file === null || names.includes(file.toString())) fire();
      });
      w.on('error', () => undefined);
      watchers.push(w);
    } catch {
      // A folder that cannot be watched still reloads on workspace/didChangeWatchedFiles.
    }
  }
  return {
    close() {
      fire.cancel();
      for (const w of watchers) w.close();
    },
  };
}
