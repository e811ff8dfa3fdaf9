"""Protocol buffer messages (proto2) in pure Python: the part of the API
of protoc's generated classes that Caffe's model files need.

A message class lists its fields (:class:`Field`). Its instances read an
unset scalar as the field's default, an unset sub-message as an empty
one that becomes present once something is set in it, and a repeated
field as a container (``append`` / ``extend`` for scalars, ``add`` for
messages). ``SerializeToString`` writes the set fields in field-number
order; ``MergeFromString`` / ``ParseFromString`` read them back, taking
repeated numbers packed or not, and skip the fields the class does not
list (they are not kept). :func:`to_text` writes a message in protobuf's
text format (the ``.prototxt`` of Caffe). Enum values are plain ints,
named by class attributes as in generated code
(``PoolingParameter.MAX``).

Repeated float and double fields read from a file keep their values in
one NumPy array (a model's weights are millions of them);
``numpy.asarray(blob.data)`` takes it without a copy per value.
"""
import operator
import struct

import numpy

from kusari.links.layers.caffe import _wire

# kind: (wire type, NumPy dtype of a packed run, or None)
_KINDS = {
    'int32': (_wire.VARINT, None), 'int64': (_wire.VARINT, None),
    'uint32': (_wire.VARINT, None), 'uint64': (_wire.VARINT, None),
    'bool': (_wire.VARINT, None), 'enum': (_wire.VARINT, None),
    'float': (_wire.FIXED32, numpy.dtype('<f4')),
    'double': (_wire.FIXED64, numpy.dtype('<f8')),
    'string': (_wire.LENGTH_DELIMITED, None),
    'bytes': (_wire.LENGTH_DELIMITED, None),
}
_SIGNED = ('int32', 'int64', 'enum')
_DEFAULTS = {'bool': False, 'float': 0.0, 'double': 0.0, 'string': '',
             'bytes': b''}


class Field:
    """A field of a message: its number, name, kind (a scalar kind named
    in ``_KINDS`` or a Message subclass), default, and whether it is
    repeated (and packed when written)."""

    def __init__(self, number, name, kind, default=None, repeated=False,
                 packed=False):
        self.number = number
        self.name = name
        self.kind = kind
        self.is_message = not isinstance(kind, str)
        self.repeated = repeated
        self.packed = packed
        if default is None and not self.is_message:
            default = _DEFAULTS.get(kind, 0)
        self.default = default

    def convert(self, value, owner):
        """``value`` as this field stores it; TypeError for a value of
        another type, as generated code raises."""
        kind = self.kind
        try:
            if kind in ('float', 'double'):
                if isinstance(value, (str, bytes)):
                    raise TypeError
                value = float(value)
                return float(numpy.float32(value)) if kind == 'float' \
                    else value
            if kind == 'string':
                if isinstance(value, bytes):
                    return value.decode('utf-8')
                if not isinstance(value, str):
                    raise TypeError
                return value
            if kind == 'bytes':
                return value.encode('utf-8') if isinstance(value, str) \
                    else bytes(value)
            number = operator.index(value)
            return bool(number) if kind == 'bool' else number
        except TypeError:
            raise TypeError(
                f'{owner}.{self.name}: a {kind} field cannot hold '
                f'{value!r} ({type(value).__name__})') from None

    def encode(self, value):
        """The bytes of one value of this (scalar) field, key included."""
        wire_type = _KINDS[self.kind][0]
        return _wire.encode_key(self.number, wire_type) + \
            self._payload(value)

    def _payload(self, value):
        kind = self.kind
        if kind == 'float':
            return struct.pack('<f', value)
        if kind == 'double':
            return struct.pack('<d', value)
        if kind in ('string', 'bytes'):
            data = value.encode('utf-8') if kind == 'string' else value
            return _wire.encode_varint(len(data)) + data
        return _wire.encode_varint(int(value))

    def encode_packed(self, values):
        dtype = _KINDS[self.kind][1]
        if dtype is not None:
            payload = numpy.asarray(values, dtype).tobytes()
        else:
            payload = b''.join(_wire.encode_varint(int(v)) for v in values)
        return _wire.encode_length_delimited(self.number, payload)

    def decode(self, wire_type, value):
        """The values (a list, or an array for a packed float run) of one
        occurrence of this scalar field on the wire."""
        kind = self.kind
        expected, dtype = _KINDS[kind]
        if wire_type == _wire.LENGTH_DELIMITED and expected != wire_type:
            if not self.repeated:
                raise _wire.Malformed(f'{self.name} is packed but not '
                                      f'repeated')
            if dtype is not None:
                return numpy.frombuffer(value, dtype).astype(
                    dtype.newbyteorder('='), copy=False)
            return [self._from_varint(v)
                    for v in _wire.packed_varints(value)]
        if wire_type != expected:
            raise _wire.Malformed(f'{self.name} has the wire type '
                                  f'{wire_type}, not {expected}')
        if kind == 'float':
            return [struct.unpack('<f', value)[0]]
        if kind == 'double':
            return [struct.unpack('<d', value)[0]]
        if kind == 'string':
            return [bytes(value).decode('utf-8')]
        if kind == 'bytes':
            return [bytes(value)]
        return [self._from_varint(value)]

    def _from_varint(self, value):
        if self.kind == 'bool':
            return bool(value)
        if self.kind in _SIGNED and value >= 1 << 63:
            value -= 1 << 64
        if self.kind in ('int32', 'enum') and value >= 1 << 31:
            value -= 1 << 32
        return value


class RepeatedScalarContainer:
    """The values of a repeated scalar field: a list-like sequence."""

    def __init__(self, message, field):
        self._message = message
        self._field = field
        self._values = []

    def _list(self):
        if isinstance(self._values, numpy.ndarray):
            self._values = self._values.tolist()
        return self._values

    def append(self, value):
        self._list().append(self._field.convert(value, self._owner()))
        self._message._mark_present()

    def extend(self, values):
        converted = [self._field.convert(v, self._owner()) for v in values]
        self._list().extend(converted)
        self._message._mark_present()

    def _merge(self, values):
        """Add decoded values (a list, or an array: a packed float run,
        kept as an array)."""
        current = self._values
        if isinstance(values, numpy.ndarray):
            self._values = values if not len(current) else \
                numpy.concatenate([numpy.asarray(current, values.dtype),
                                   values])
        elif isinstance(current, numpy.ndarray):
            self._values = numpy.concatenate(
                [current, numpy.asarray(values, current.dtype)])
        else:
            current.extend(values)

    def _owner(self):
        return type(self._message).__name__

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        values = self._values
        return iter(values.tolist() if isinstance(values, numpy.ndarray)
                    else values)

    def __getitem__(self, index):
        values = self._values
        if isinstance(values, numpy.ndarray):
            return values[index].tolist()
        return values[index]

    def __setitem__(self, index, value):
        values = self._list()
        if isinstance(index, slice):
            values[index] = [self._field.convert(v, self._owner())
                             for v in value]
        else:
            values[index] = self._field.convert(value, self._owner())
        self._message._mark_present()

    def __eq__(self, other):
        if other is self:
            return True
        try:
            return list(self) == list(other)
        except TypeError:
            return NotImplemented

    __hash__ = None

    def __array__(self, dtype=None, copy=None):
        # Values read from a file are one read-only array: no copy of
        # it unless asked.
        make = numpy.array if copy else numpy.asarray
        return make(self._values, dtype=dtype or _KINDS[self._field.kind][1])

    def __repr__(self):
        return repr(list(self))


class RepeatedCompositeContainer:
    """The messages of a repeated message field; ``add`` appends one."""

    def __init__(self, message, field):
        self._message = message
        self._field = field
        self._items = []

    def add(self, **kwargs):
        """Append a new message (its fields set from ``kwargs``) and
        return it."""
        item = self._field.kind(**kwargs)
        item._attach(self._message)
        item._mark_present()
        # An item given fields by ``kwargs`` is present already: mark the
        # messages holding it too.
        self._message._mark_present()
        self._items.append(item)
        return item

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(self._items)

    def __getitem__(self, index):
        return self._items[index]

    def __repr__(self):
        return repr(self._items)


class Message:
    """Base of the message classes; subclasses list ``FIELDS``."""

    FIELDS = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._by_name = {field.name: field for field in cls.FIELDS}
        cls._by_number = {field.number: field for field in cls.FIELDS}
        cls._in_order = sorted(cls.FIELDS, key=lambda field: field.number)

    def __init__(self, **kwargs):
        object.__setattr__(self, '_values', {})
        object.__setattr__(self, '_parent', None)
        object.__setattr__(self, '_present', False)
        for name, value in kwargs.items():
            field = self._field(name)
            if field.repeated:
                if field.is_message:
                    container = getattr(self, name)
                    for item in value:
                        container.add().MergeFrom(item)
                else:
                    getattr(self, name).extend(value)
            elif field.is_message:
                getattr(self, name).MergeFrom(value)
            else:
                setattr(self, name, value)

    def _field(self, name):
        field = type(self)._by_name.get(name)
        if field is None:
            raise AttributeError(
                f'{type(self).__name__} has no field {name!r}')
        return field

    def _attach(self, parent):
        object.__setattr__(self, '_parent', parent)

    def _mark_present(self):
        message = self
        while message is not None and not message._present:
            object.__setattr__(message, '_present', True)
            message = message._parent

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        field = self._field(name)
        values = self._values
        if name in values:
            return values[name]
        if field.repeated:
            container = (RepeatedCompositeContainer if field.is_message
                         else RepeatedScalarContainer)(self, field)
            values[name] = container
            return container
        if field.is_message:
            # Present in this message only once something is set in it.
            message = field.kind()
            message._attach(self)
            values[name] = message
            return message
        return field.default

    def __setattr__(self, name, value):
        field = self._field(name)
        if field.repeated or field.is_message:
            raise AttributeError(
                f'Assignment not allowed to '
                f'{"repeated" if field.repeated else "composite"} field '
                f'"{name}" in protocol message object.')
        self._values[name] = field.convert(value, type(self).__name__)
        self._mark_present()

    def HasField(self, name):
        """Whether the (non-repeated) field ``name`` was set."""
        field = self._field(name)
        if field.repeated:
            raise ValueError(f'{type(self).__name__}.{name} is repeated: '
                             f'it has no presence')
        value = self._values.get(name)
        if field.is_message:
            return value is not None and value._present
        return name in self._values

    def ClearField(self, name):
        self._field(name)
        self._values.pop(name, None)

    def Clear(self):
        self._values.clear()

    def MergeFrom(self, other):
        """Merge the set fields of the message ``other`` into this one."""
        self.MergeFromString(other.SerializeToString())

    def SerializeToString(self):
        """The message's bytes: its set fields in field-number order."""
        out = bytearray()
        for field in type(self)._in_order:
            value = self._values.get(field.name)
            if value is None:
                continue
            if field.is_message:
                for message in (value if field.repeated else [value]):
                    if field.repeated or message._present:
                        out += _wire.encode_length_delimited(
                            field.number, message.SerializeToString())
            elif not field.repeated:
                out += field.encode(value)
            elif field.packed:
                if len(value):
                    out += field.encode_packed(value._values)
            else:
                for item in value:
                    out += field.encode(item)
        return bytes(out)

    def MergeFromString(self, data):
        """Read the fields of the bytes ``data`` into this message;
        returns the number of bytes read."""
        for number, wire_type, value in _wire.fields(memoryview(data)):
            field = type(self)._by_number.get(number)
            if field is None:
                continue
            if field.is_message:
                if wire_type != _wire.LENGTH_DELIMITED:
                    raise _wire.Malformed(
                        f'{field.name} is a message but has the wire type '
                        f'{wire_type}')
                container = getattr(self, field.name)
                target = container.add() if field.repeated else container
                target.MergeFromString(value)
                target._mark_present()
                continue
            decoded = field.decode(wire_type, value)
            if field.repeated:
                getattr(self, field.name)._merge(decoded)
            else:
                self._values[field.name] = decoded[-1]
        self._mark_present()
        return len(data)

    def ParseFromString(self, data):
        """Replace this message's fields by those of ``data``."""
        self.Clear()
        return self.MergeFromString(data)

    def __repr__(self):
        fields = ', '.join(
            f'{name}={value!r}' for name, value in self._values.items()
            if not isinstance(value, Message) or value._present)
        return f'{type(self).__name__}({fields})'


def to_text(message, indent=0):
    """The set fields of ``message`` in protobuf's text format, one
    ``name: value`` line per value (``name { ... }`` for a message),
    in field-number order; enum values are written as numbers, which
    the text format accepts."""
    pad = ' ' * indent
    lines = []
    for field in type(message)._in_order:
        value = message._values.get(field.name)
        if value is None:
            continue
        values = value if field.repeated else [value]
        for item in values:
            if field.is_message:
                if field.repeated or item._present:
                    lines.append(f'{pad}{field.name} {{\n'
                                 f'{to_text(item, indent + 2)}{pad}}}\n')
            else:
                lines.append(f'{pad}{field.name}: '
                             f'{_text_scalar(field.kind, item)}\n')
    return ''.join(lines)


def _text_scalar(kind, value):
    if kind == 'bool':
        return 'true' if value else 'false'
    if kind == 'float':
        return str(numpy.float32(value))
    if kind == 'double':
        return repr(float(value))
    if kind in ('string', 'bytes'):
        data = value.encode('utf-8') if kind == 'string' else value
        return '"' + ''.join(_text_byte(byte) for byte in data) + '"'
    return str(int(value))


def _text_byte(byte):
    """One byte of a quoted string, escaped as the text format reads it."""
    char = chr(byte)
    if char in '"\'\\':
        return '\\' + char
    if 0x20 <= byte < 0x7f:
        return char
    return f'\\{byte:03o}'
