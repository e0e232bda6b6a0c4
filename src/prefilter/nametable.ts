/**
 * Name tables of the prefilter (src/prefilter/index.ts): a set of identifier names with their role
 * bits in flat typed arrays, scanned over undecoded bytes or decoded text.
 */

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ID_BYTE = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  ID_BYTE[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ? 1 : 0;
}

/** Lookup key of the token text[s, s + len): its length, first four and last two characters. */
function keyOf(text: string, s: number, len: number): number {
  let h = len;
  const head = len < 4 ? len : 4;
  for (let k = 0; k < head; k++) h = (Math.imul(h, 31) + text.charCodeAt(s + k)) | 0;
  if (len > 4) h = (Math.imul(Math.imul(h, 31) + text.charCodeAt(s + len - 2), 31) + text.charCodeAt(s + len - 1)) | 0;
  return h;
}

/** Where the names of some roles occur (start offsets), collected by a scan. */
export interface Occurrences {
  roles: number;
  at: Map<string, number[]>;
}

export interface ScanResult {
  /** Union of the roles of the names found. */
  roles: number;
  /** The names found (distinct). */
  names: string[];
}

/**
 * A set of names and a scanner for them, in flat typed arrays: cheap to build for 20,000 names,
 * cache-friendly to probe, and saved as bytes in the rules snapshot so that loading it costs no
 * work per name. Token keys go into an open-addressing hash; names sharing a key are chained;
 * the names themselves are one byte string, compared byte by byte (a JS string is made only for
 * a name found). Names that are not ASCII identifiers are searched as substrings of the decoded text.
 */
export class NameTable {
  private readonly mask: number;
  /** Each name as a string, made the first time it is found (a file names the same few names again and again). */
  private readonly names: (string | undefined)[];
  constructor(
    readonly count: number,
    readonly minLen: number,
    readonly maxLen: number,
    /** Per slot: the key, and 1 + index of the first name with it (0: empty slot). */
    private readonly slotKey: Int32Array,
    private readonly slotHead: Int32Array,
    /** Per name: 1 + index of the next name with the same key (0: none). */
    private readonly next: Int32Array,
    /** Per name: start of its bytes in `blob` (count + 1 entries). */
    private readonly offsets: Int32Array,
    private readonly roles: Uint8Array,
    private readonly blob: Uint8Array,
    readonly odd: { name: string; roles: number }[],
  ) {
    this.mask = slotKey.length - 1;
    this.names = new Array<string | undefined>(count);
  }

  static build(entries: [string, number][]): NameTable {
    const odd: { name: string; roles: number }[] = [];
    const plain: [string, number][] = [];
    for (const e of entries) {
      if (IDENT.test(e[0])) plain.push(e);
      else odd.push({ name: e[0], roles: e[1] });
    }
    let min = Infinity;
    let max = 0;
    let bytes = 0;
    for (const [name] of plain) {
      if (name.length < min) min = name.length;
      if (name.length > max) max = name.length;
      bytes += name.length;
    }
    let size = 16;
    while (size < plain.length * 2) size *= 2;
    const mask = size - 1;
    const slotKey = new Int32Array(size);
    const slotHead = new Int32Array(size);
    const next = new Int32Array(plain.length);
    const offsets = new Int32Array(plain.length + 1);
    const roles = new Uint8Array(plain.length);
    const blob = new Uint8Array(bytes);
    let at = 0;
    plain.forEach(([name, r], i) => {
      offsets[i] = at;
      for (let k = 0; k < name.length; k++) blob[at++] = name.charCodeAt(k);
      roles[i] = r;
    });
    offsets[plain.length] = at;
    for (let i = plain.length - 1; i >= 0; i--) {
      const name = plain[i]![0];
      const key = keyOf(name, 0, name.length);
      let slot = key & mask;
      while (slotHead[slot] !== 0 && slotKey[slot] !== key) slot = (slot + 1) & mask;
      next[i] = slotHead[slot]!;
      slotKey[slot] = key;
      slotHead[slot] = i + 1;
    }
    return new NameTable(plain.length, min === Infinity ? 1 : min, max, slotKey, slotHead, next, offsets, roles, blob, odd);
  }

  /** Serialized form: a small JSON head and the arrays, 4-byte aligned. */
  toBytes(): Buffer {
    const head = Buffer.from(
      JSON.stringify({ count: this.count, minLen: this.minLen, maxLen: this.maxLen, slots: this.slotKey.length, blob: this.blob.length, odd: this.odd }),
      'utf8',
    );
    const pad = (n: number) => (4 - (n % 4)) % 4;
    const headLen = Buffer.alloc(4);
    headLen.writeUInt32LE(head.length);
    const parts: Uint8Array[] = [headLen, head, Buffer.alloc(pad(head.length))];
    for (const a of [this.slotKey, this.slotHead, this.next, this.offsets]) parts.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    parts.push(
      Buffer.from(this.roles.buffer, this.roles.byteOffset, this.roles.byteLength),
      Buffer.from(this.blob.buffer, this.blob.byteOffset, this.blob.byteLength),
    );
    return Buffer.concat(parts);
  }

  /** Views over `bytes` (no copy): `bytes` must be 4-byte aligned in its ArrayBuffer. */
  static fromBytes(bytes: Uint8Array): NameTable {
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headLen = dv.getUint32(0, true);
    const head = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, headLen).toString('utf8')) as {
      count: number;
      minLen: number;
      maxLen: number;
      slots: number;
      blob: number;
      odd: { name: string; roles: number }[];
    };
    let at = bytes.byteOffset + 4 + headLen + ((4 - (headLen % 4)) % 4);
    const i32 = (n: number) => {
      const a = new Int32Array(bytes.buffer, at, n);
      at += n * 4;
      return a;
    };
    const slotKey = i32(head.slots);
    const slotHead = i32(head.slots);
    const next = i32(head.count);
    const offsets = i32(head.count + 1);
    const roles = new Uint8Array(bytes.buffer, at, head.count);
    at += head.count;
    const blob = new Uint8Array(bytes.buffer, at, head.blob);
    return new NameTable(head.count, head.minLen, head.maxLen, slotKey, slotHead, next, offsets, roles, blob, head.odd);
  }

  /** The entries, for callers that want the list back. */
  entries(): [string, number][] {
    const out: [string, number][] = [];
    for (let i = 0; i < this.count; i++) out.push([this.nameAt(i), this.roles[i]!]);
    for (const o of this.odd) out.push([o.name, o.roles]);
    return out;
  }

  private nameAt(i: number): string {
    return (this.names[i] ??= this.decodeName(i));
  }

  private decodeName(i: number): string {
    return Buffer.from(this.blob.buffer, this.blob.byteOffset + this.offsets[i]!, this.offsets[i + 1]! - this.offsets[i]!).toString('latin1');
  }

  /** True when buf[s, e) is one of the names. */
  hasToken(buf: Uint8Array, s: number, e: number): boolean {
    const len = e - s;
    if (len < this.minLen || len > this.maxLen) return false;
    let key = len;
    const hd = len < 4 ? len : 4;
    for (let k = 0; k < hd; k++) key = (Math.imul(key, 31) + buf[s + k]!) | 0;
    if (len > 4) key = (Math.imul(Math.imul(key, 31) + buf[e - 2]!, 31) + buf[e - 1]!) | 0;
    for (let i = this.head(key); i !== 0; i = this.next[i - 1]!) {
      const o = this.offsets[i - 1]!;
      if (this.offsets[i]! - o !== len) continue;
      let k = 0;
      while (k < len && buf[s + k] === this.blob[o + k]) k++;
      if (k === len) return true;
    }
    return false;
  }

  /**
   * A 4-byte-window filter for tables of long names (all at least MIN_GRAM_NAME bytes), built on
   * first use: a bit per hashed window (4 consecutive bytes) of any name. A name of length L as a
   * token in the file holds, for samples every L - 3 bytes, a sample whose window lies inside
   * it, so a file whose sampled windows are all unknown has none of the names. Most windows of
   * ordinary code are not windows of the names: the scan reads 4 bytes per sample and only
   * expands the tokens around the few samples that hit (then compared in full, as scanBytes does).
   */
  private grams?: Uint8Array;

  get gramsUsable(): boolean {
    return this.count > 0 && this.odd.length === 0 && this.minLen >= MIN_GRAM_NAME;
  }

  /** True when one of the names is a whole token of buf[0, n). Only when `gramsUsable`. */
  anyToken(buf: Uint8Array, n: number): boolean {
    const bits = (this.grams ??= this.buildGrams());
    const step = this.minLen - 3;
    for (let p = 0; p + 4 <= n; p += step) {
      const g = Math.imul(buf[p]! | (buf[p + 1]! << 8) | (buf[p + 2]! << 16) | (buf[p + 3]! << 24), 0x9e3779b1) >>> (32 - GRAM_BITS);
      if ((bits[g >> 3]! & (1 << (g & 7))) === 0 || ID_BYTE[buf[p]!] === 0) continue;
      let s = p;
      while (s > 0 && ID_BYTE[buf[s - 1]!] !== 0) s--;
      let e = p + 1;
      while (e < n && ID_BYTE[buf[e]!] !== 0) e++;
      if (this.hasToken(buf, s, e)) return true;
      // The next sample after this token (any later token still holds a sample).
      if (e - step > p) p = e - step;
    }
    return false;
  }

  private buildGrams(): Uint8Array {
    const bits = new Uint8Array(1 << (GRAM_BITS - 3));
    const b = this.blob;
    for (let i = 0; i < this.count; i++) {
      const end = this.offsets[i + 1]!;
      for (let p = this.offsets[i]!; p + 4 <= end; p++) {
        const g = Math.imul(b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24), 0x9e3779b1) >>> (32 - GRAM_BITS);
        bits[g >> 3]! |= 1 << (g & 7);
      }
    }
    return bits;
  }

  /** First name (1 + index) with this key, or 0. */
  private head(key: number): number {
    let slot = key & this.mask;
    for (;;) {
      const h = this.slotHead[slot]!;
      if (h === 0) return 0;
      if (this.slotKey[slot] === key) return h;
      slot = (slot + 1) & this.mask;
    }
  }

  /**
   * Only tokens at least `minLen` long matter, so the scan samples every `minLen`-th byte: a
   * token that long covers a sample. At a sample inside a token, the token is expanded to its
   * ends and looked up by its key, then compared in full. Bytes between samples outside tokens
   * are never read.
   */
  scanBytes(buf: Uint8Array, n: number, text: string | undefined, found: Map<string, number>, occurrences?: Occurrences): void {
    const L = this.minLen;
    const maxLen = this.maxLen;
    const blob = this.blob;
    const offsets = this.offsets;
    if (this.count) {
      let p = L - 1;
      while (p < n) {
        if (ID_BYTE[buf[p]!] === 0) {
          p += L;
          continue;
        }
        let s = p;
        while (s > 0 && ID_BYTE[buf[s - 1]!] !== 0) s--;
        let e = p + 1;
        while (e < n && ID_BYTE[buf[e]!] !== 0) e++;
        const len = e - s;
        p = e + L;
        if (len < L || len > maxLen) continue;
        let key = len;
        const hd = len < 4 ? len : 4;
        for (let k = 0; k < hd; k++) key = (Math.imul(key, 31) + buf[s + k]!) | 0;
        if (len > 4) key = (Math.imul(Math.imul(key, 31) + buf[e - 2]!, 31) + buf[e - 1]!) | 0;
        for (let i = this.head(key); i !== 0; i = this.next[i - 1]!) {
          const o = offsets[i - 1]!;
          if (offsets[i]! - o !== len) continue;
          let k = 0;
          while (k < len && buf[s + k] === blob[o + k]) k++;
          if (k === len) {
            const name = this.nameAt(i - 1);
            const r = this.roles[i - 1]!;
            if (!found.has(name)) found.set(name, r);
            if (occurrences && (r & occurrences.roles) !== 0) {
              const list = occurrences.at.get(name);
              if (list) list.push(s);
              else occurrences.at.set(name, [s]);
            }
          }
        }
      }
    }
    if (text !== undefined) for (const e of this.odd) if (text.includes(e.name)) found.set(e.name, e.roles);
  }

  /** The same on decoded text (UTF-16 code units; non-ASCII characters end a token). */
  scanText(text: string, found: Map<string, number>): void {
    const n = text.length;
    const minLen = this.minLen;
    const maxLen = this.maxLen;
    const blob = this.blob;
    const offsets = this.offsets;
    let i = 0;
    while (this.count && i < n) {
      let c = text.charCodeAt(i);
      if (c >= 128 || ID_BYTE[c] === 0) {
        i++;
        continue;
      }
      const s = i;
      while (i < n) {
        c = text.charCodeAt(i);
        if (c >= 128 || ID_BYTE[c] === 0) break;
        i++;
      }
      const len = i - s;
      if (len < minLen || len > maxLen) continue;
      for (let j = this.head(keyOf(text, s, len)); j !== 0; j = this.next[j - 1]!) {
        const o = offsets[j - 1]!;
        if (offsets[j]! - o !== len) continue;
        let k = 0;
        while (k < len && text.charCodeAt(s + k) === blob[o + k]) k++;
        if (k === len) {
          const name = this.nameAt(j - 1);
          if (!found.has(name)) found.set(name, this.roles[j - 1]!);
        }
      }
    }
    for (const e of this.odd) if (text.includes(e.name)) found.set(e.name, e.roles);
  }
}

/** The 4-byte-window filter (NameTable.anyToken) needs names this long: samples every length - 3 bytes. */
const MIN_GRAM_NAME = 7;
/** 2^20 bits (128 KiB): 10,000 names of ~15 bytes set ~1.5% of them. */
const GRAM_BITS = 20;
