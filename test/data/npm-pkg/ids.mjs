export { default as parse } from './lib/parse.mjs';
export { default as validate } from './lib/validate.mjs';
export { default as write } from './lib/write.mjs';
