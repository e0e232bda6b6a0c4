/** `raiselint/eslint`: the ESLint plugin, built from the bundled datasets (see plugin.ts). */
import { createPlugin } from './plugin.js';

export { createPlugin, jsRulesOf, type PluginOptions } from './plugin.js';
const plugin = createPlugin();
export default plugin;
