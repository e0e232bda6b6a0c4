/** What reports say about the tool itself. */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; homepage?: string };

export const TOOL_NAME = 'raiselint';
export const TOOL_VERSION: string = pkg.version;
export const TOOL_URI: string | undefined = pkg.homepage;
