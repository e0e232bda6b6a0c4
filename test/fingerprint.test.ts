/**
 * Fingerprints (src/diagnostics/fingerprint.ts) name what a finding is, the same in every run: a
 * call on what a function of another project module returns is named by that function's place in
 * its module, not by the index the module's summary got in the thread that read it.
 */
import { describe, expect, it } from 'vitest';
import { callTarget, fingerprintKey } from '../src/diagnostics/fingerprint.js';
import { initParser, parsePython } from '../src/parse/parser.js';
import type { Finding } from '../src/match/match.js';
import type { Type } from '../src/semantic/types.js';

async function finding(site: { callee?: string[]; receiver?: Type; receiverText?: string }): Promise<Finding> {
  await initParser();
  const root = parsePython('class T:\n    def test(self):\n        self.make().get_payload(0)\n').rootNode;
  const call = root.descendantsOfType('call')[0]!;
  return { rule: { id: 'cpython/get-payload' }, site: { node: call, kind: 'method', name: 'get_payload', ...site } } as unknown as Finding;
}

describe('fingerprint keys', () => {
  it('a callee through another module’s function: the same key whatever index its summary had', async () => {
    const first = await finding({ callee: ['<m0@1834>().get_payload'], receiverText: 'self.make()' });
    const again = await finding({ callee: ['<m7@1834>().get_payload'], receiverText: 'self.make()' });
    expect(fingerprintKey(first)).toBe(fingerprintKey(again));
    expect(callTarget(first)).toBe('<project function>().get_payload');
    expect(fingerprintKey(first)).toContain('T.test');
  });

  it('an instance of what such a function returns, among other classes: the same key in any order of indexes', async () => {
    const inst = (key: string) => ({ kind: 'inst', key }) as Type[number];
    const a = await finding({ receiver: [inst('?<m2@40>()'), inst('email.message.Message')] });
    const b = await finding({ receiver: [inst('?<m11@40>()'), inst('email.message.Message')] });
    expect(callTarget(a)).toBe(callTarget(b));
    // Library callees and classes are kept as they are.
    expect(callTarget(await finding({ callee: ['email.message.Message.get_payload'] }))).toBe('email.message.Message.get_payload');
  });
});
