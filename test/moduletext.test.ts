/** What a module's text hands on and defines, read without a parse (src/semantic/moduletext.ts). */
import { describe, expect, it } from 'vitest';
import { handedOn, plainDefs } from '../src/semantic/moduletext.js';

const TEXT = `import json
import os.path
import http.client as httplib
from shutil import rmtree as rm, copyfile
from bz2 import *
from .local import helper
from http import (
    cookiejar as cookielib,
)
TIMEOUT: float = 3.0
opener = bz2.open


def tidy(p):
    rm(p)


@cache
def cached(p):
    return p


def twice():
    pass


def twice():
    pass


def copyfile(a, b):
    pass
`;

describe('handedOn', () => {
  const handed = handedOn(TEXT);
  const of = (name: string) => [...(handed.get(name) ?? [])].sort();
  it('names bound from a module, with its root: plain imports, aliases, from-imports, parenthesised lists, star', () => {
    expect(of('json')).toEqual(['json']);
    expect(of('os')).toEqual(['os']);
    expect(of('httplib')).toEqual(['http']);
    expect(of('rm')).toEqual(['shutil']);
    expect(of('rmtree')).toEqual([]);
    expect(of('cookielib')).toEqual(['http']);
    expect(of('*')).toEqual(['bz2']);
  });
  it('module-level assignments may be anything; a relative import hands on the project’s own names', () => {
    expect(of('TIMEOUT')).toEqual(['*']);
    expect(of('opener')).toEqual(['*']);
    expect(of('helper')).toEqual([]);
  });
  it('plain defs only: not decorated, not defined twice, not also imported', () => {
    expect([...plainDefs(TEXT, handed)].sort()).toEqual(['tidy']);
  });
});
