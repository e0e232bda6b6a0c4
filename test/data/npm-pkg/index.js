'use strict';
const { Parser } = require('./lib/parser.js');
const util = require('./lib/util.js');

function check(value) {
  if (typeof value !== 'string') {
    throw new TypeError('value must be a string');
  }
  return internal(value);
}

function internal(value) {
  if (!value) throw new Error('empty value');
  return value;
}

module.exports = { check, Parser, parseAll: util.parseAll };
