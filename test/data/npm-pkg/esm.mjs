import mini from './index.js';
export const { check, Parser, parseAll } = mini;
