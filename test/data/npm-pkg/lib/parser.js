'use strict';
class ParseError extends Error {}

class Parser {
  constructor(source) {
    if (source == null) throw new TypeError(`source is required, got ${source}`);
    this.source = source;
  }

  parse() {
    if (!this.source.trim()) throw new ParseError('nothing to parse');
    try {
      return JSON.parse(this.source);
    } catch (e) {
      throw new ParseError('bad JSON');
    }
  }

  save() {
    throw new Error('save is not implemented');
  }

  _internal() {
    throw new Error('private helper');
  }

  static fail(message) {
    throw new ParseError(message);
  }

  static of(source) {
    if (typeof source !== 'string') throw new TypeError('source must be a string');
    return new Parser(source);
  }
}

exports.Parser = Parser;
exports.ParseError = ParseError;
