'use strict';
Object.defineProperty(exports, '__esModule', { value: true });
exports.parseAll = void 0;
function parseAll(list) {
  const run = () => {
    throw new Error('nested function: not this function');
  };
  if (!Array.isArray(list)) throw new RangeError('list ' + String(list) + ' is not an array');
  return list.map(run);
}
exports.parseAll = parseAll;
