import validate from './validate.mjs';

function parse(id) {
  if (!validate(id)) {
    throw TypeError('Invalid id');
  }
  return Number.parseInt(id, 16);
}
export default parse;
