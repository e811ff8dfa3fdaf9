"""A minimal protobuf writer for the Caffe tests: the bytes of hand-made
messages, written independently of the encoder under test."""


def varint(value):
    """The varint of ``value`` (a negative one as its 64-bit two's
    complement, as protobuf writes negative int32 and int64)."""
    out = bytearray()
    value &= (1 << 64) - 1
    while True:
        byte, value = value & 0x7f, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field(number, payload):
    """A length-delimited field (bytes) or a varint field (int)."""
    if isinstance(payload, int):
        return varint(number << 3) + varint(payload)
    return varint(number << 3 | 2) + varint(len(payload)) + payload
