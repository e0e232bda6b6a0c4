/** The exception hierarchy's tables (src/rules/exceptions.ts): bases, several bases, public names. */
import { describe, expect, it } from 'vitest';
import { ExceptionHierarchy } from '../src/rules/exceptions.js';

describe('exception hierarchy', () => {
  const h = new ExceptionHierarchy();
  it('built-ins, bare and as builtins.<name>, with their bases', () => {
    expect(h.mro('builtins.TabError')).toEqual(['TabError', 'IndentationError', 'SyntaxError', 'Exception', 'BaseException']);
    expect(h.mro('ExceptionGroup')).toEqual(['ExceptionGroup', 'BaseExceptionGroup', 'Exception', 'BaseException']);
    expect(h.mro('BaseException')).toEqual(['BaseException']);
    expect(h.canonical('IOError')).toBe('OSError');
    expect(h.canonical('builtins.EnvironmentError')).toBe('OSError');
  });

  it('standard-library classes: several bases, public names, a class with no bases', () => {
    expect(h.canonical('_io.UnsupportedOperation')).toBe('io.UnsupportedOperation');
    expect(h.isSubclass('io.UnsupportedOperation', 'OSError')).toBe(true);
    expect(h.isSubclass('io.UnsupportedOperation', 'ValueError')).toBe(true);
    expect(h.isSubclass('json.JSONDecodeError', 'ValueError')).toBe(true);
    expect(h.mro('ssl.SSLCertVerificationError')).toEqual([
      'ssl.SSLCertVerificationError',
      'ssl.SSLError',
      'ValueError',
      'OSError',
      'Exception',
      'BaseException',
    ]);
    expect(h.mro('configparser.MissingSectionHeaderError')).toEqual([
      'configparser.MissingSectionHeaderError',
      'configparser.ParsingError',
      'configparser.Error',
      'Exception',
      'BaseException',
    ]);
    expect(h.isKnown('uuid.SafeUUID')).toBe(true);
    expect(h.mro('uuid.SafeUUID')).toEqual(['uuid.SafeUUID']);
    expect(h.isSubclass('subprocess.TimeoutExpired', 'ValueError')).toBe(false);
  });
});
