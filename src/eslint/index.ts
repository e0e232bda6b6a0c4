/**
 * `raiselint/eslint`: the ESLint plugin, built from the bundled datasets' compiled-rules snapshot
 * (see plugin.ts: `loadPlugin`); compiled in place when no snapshot can be read or written.
 */
import { createPlugin, loadPlugin } from './plugin.js';

export { createPlugin, jsRulesOf, loadPlugin, type PluginOptions } from './plugin.js';

async function bundled(): Promise<ReturnType<typeof createPlugin>> {
  try {
    return await loadPlugin();
  } catch {
    return createPlugin();
  }
}

const plugin = await bundled();
export default plugin;
