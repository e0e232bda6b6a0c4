import framing
from framing import Decoder, Encoder, encode_frame


def load(blob):
    return framing.read_frame(blob)


def feed_all(chunks):
    decoder = Decoder(limit=16)
    for chunk in chunks:
        decoder.feed(chunk)
    return decoder


def safe_feed(decoder: Decoder, chunk):
    try:
        return decoder.feed(chunk)
    except OverflowError:
        return 0


def encode(payload):
    return encode_frame(payload)


def encode_with(encoder: Encoder, payload):
    return encoder.encode(payload)


def unrelated(stream, payload):
    stream.feed(payload)
    return stream.encode(payload)
