/** What reports say about the tool itself. */
import { PACKAGE } from '../io/package.js';

export const TOOL_NAME = 'raiselint';
export const TOOL_VERSION: string = PACKAGE.version;
export const TOOL_URI: string | undefined = PACKAGE.homepage;
