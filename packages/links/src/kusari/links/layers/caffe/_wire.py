"""The protocol buffer wire format: varints, field keys, and the split of
a message into its fields. Caffe's model files are protocol buffer
messages; this is what reading and writing them rests on."""

# Wire types of the protobuf encoding.
VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5


class Malformed(ValueError):
    """The bytes are not a protobuf message of the expected shape."""


def read_varint(data, position):
    """The varint at ``position`` of ``data``, and the position after it."""
    result = shift = 0
    while True:
        if position >= len(data):
            raise Malformed('a varint runs past the end of its message')
        byte = data[position]
        position += 1
        result |= (byte & 0x7f) << shift
        if byte < 0x80:
            return result, position
        shift += 7
        if shift > 63:
            raise Malformed('a varint is longer than 10 bytes')


def packed_varints(data):
    """The varints of a packed run ``data``."""
    position, values = 0, []
    while position < len(data):
        value, position = read_varint(data, position)
        values.append(value)
    return values


def fields(data):
    """Yield ``(number, wire type, value)`` for each field of the message
    ``data`` (a memoryview): an int for a varint, a memoryview of the
    bytes for the other wire types."""
    position, end = 0, len(data)
    while position < end:
        key, position = read_varint(data, position)
        number, wire_type = key >> 3, key & 7
        if wire_type == VARINT:
            value, position = read_varint(data, position)
            yield number, wire_type, value
            continue
        if wire_type == LENGTH_DELIMITED:
            size, position = read_varint(data, position)
        elif wire_type in (FIXED64, FIXED32):
            size = 8 if wire_type == FIXED64 else 4
        else:
            raise Malformed(f'field {number} has the wire type '
                            f'{wire_type} (groups are not supported)')
        if position + size > end:
            raise Malformed(f'field {number} runs past the end of its '
                            f'message')
        yield number, wire_type, data[position:position + size]
        position += size


def encode_varint(value):
    """The varint of ``value`` (a negative one as its 64-bit two's
    complement, ten bytes, as protobuf writes negative int32 and int64)."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        byte, value = value & 0x7f, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def encode_key(number, wire_type):
    """The key that starts field ``number`` of ``wire_type``."""
    return encode_varint(number << 3 | wire_type)


def encode_length_delimited(number, payload):
    """Field ``number`` holding the bytes ``payload``."""
    return (encode_key(number, LENGTH_DELIMITED)
            + encode_varint(len(payload)) + payload)
