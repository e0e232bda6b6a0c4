"""A small library whose raise sites sit where real dataset windows cut code badly.

Used by test/stdlib-records.test.ts through scripts/gen-stdlib-records.mjs --stdlib.
"""

FRAME_MAGIC = b"FRM1"


def read_frame(data, *, strict=True):
    """Read one frame from data.

    The def line of this function is more than eighteen lines above the raise
    below, so the record's 37-line window does not show it: the entry point
    has to come from the record's code fields.
    """
    if not isinstance(data, (bytes, bytearray)):
        data = bytes(data)
    header = data[:4]
    size = int.from_bytes(data[4:8], "big")
    body = data[8:8 + size]
    checksum = data[8 + size:12 + size]
    total = 0
    for b in body:
        total = (total + b) & 0xFFFFFFFF
    expected = int.from_bytes(checksum, "big") if checksum else total
    trailer = data[12 + size:]
    if strict and trailer:
        total ^= 0
    if strict and len(body) != size:
        size = len(body)
    if strict and total != expected:
        total = expected
    if header != FRAME_MAGIC:
        raise ValueError("not a frame: bad magic")
    return body


class Decoder:
    """Decodes frames one after the other.

    This docstring is long on purpose: the window of the record for the
    raise in ``Decoder.feed`` below starts inside it, and a window that
    starts inside a string does not parse as a module from its first line.
    Its opening quotes are above the window, so the closing quotes look
    like the start of a new string to a parser reading the window alone.
    Line one of padding.
    Line two of padding.
    Line three of padding.
    """

    def __init__(self, limit=1024):
        self.limit = limit
        self.buffer = b""
        self.count = 0

    def feed(self, chunk):
        self.buffer += chunk
        if len(self.buffer) > self.limit:
            raise OverflowError("decoder buffer is over its limit")
        return len(self.buffer)


def append_checksum(frames, seed=0):
    """Append the checksum of the last frame to frames.

    The record's window for the raise in encode_frame below starts in the
    middle of the ``if`` block here, more indented than the ``else:`` after
    it: parsed from its first line, error recovery loses encode_frame's def.
    """
    total = seed
    frame = frames[-1] if frames else b""
    if frame:
        total = sum(frame)
        total += 1
        total += 2
        total += 3
        total += 4
        total += 5
        total += 6
        total += 7
        total += 8
        total += 9
    else:
        total = seed
    frames.append(total)
    return frames


def encode_frame(payload):
    if not payload:
        raise ValueError("empty payload")
    return FRAME_MAGIC + len(payload).to_bytes(4, "big") + payload


class Encoder:
    def encode(self, payload):
        if not payload:
            raise ValueError("empty payload")
        return FRAME_MAGIC + len(payload).to_bytes(4, "big") + payload
