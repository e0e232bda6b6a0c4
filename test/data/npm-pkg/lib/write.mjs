import parse from './parse.mjs';

export default function write(id, buf, offset) {
  return fill(parse(id), buf, offset, 'le');
}

function fill(value, buf, offset, order) {
  if (buf) {
    if (offset < 0 || offset + 4 > buf.length) throw new RangeError(`offset ${offset} is out of bounds`);
  }
  switch (order) {
    case 'le':
    case 'be':
      break;
    default:
      throw new TypeError(`bad byte order ${order}`);
  }
  return buf ?? value;
}
