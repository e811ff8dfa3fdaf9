"""Reading the weights of a Caffe model file (``.caffemodel``) and moving
them into a link.

A caffemodel is the protocol buffer message ``NetParameter`` of BVLC
Caffe's ``caffe.proto``. Only what converting weights needs is read, by a
minimal reader of the protobuf wire format (varints, length-delimited
fields, packed and unpacked floats): each layer's name, type and blobs.
The field numbers, from caffe.proto:

- NetParameter: ``layer`` = 100 (LayerParameter), ``layers`` = 2
  (V1LayerParameter: the format of older models, VGG's among them).
- LayerParameter: ``name`` = 1, ``type`` = 2 (a string), ``blobs`` = 7.
- V1LayerParameter: ``name`` = 4, ``type`` = 5 (an enum), ``blobs`` = 6.
- BlobProto: ``num``, ``channels``, ``height``, ``width`` = 1 to 4 (the
  legacy 4-d shape), ``data`` = 5 (float), ``shape`` = 7 (BlobShape),
  ``double_data`` = 8 (double).
- BlobShape: ``dim`` = 1 (int64).
"""
import collections
import math

import numpy

from kusari.array import backend

# Wire types of the protobuf encoding.
VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5
# (name, type, blobs) field numbers of the two layer messages.
_LAYER_FIELDS = {100: (1, 2, 7), 2: (4, 5, 6)}
_BLOB_DIMS = (1, 2, 3, 4)
_BLOB_DATA, _BLOB_SHAPE, _BLOB_DOUBLE_DATA = 5, 7, 8
_SHAPE_DIM = 1

CaffeLayer = collections.namedtuple('CaffeLayer', 'name type blobs')
CaffeLayer.__doc__ = """A layer of a caffemodel: its name, its type (a
string, or the enum value of an old V1 layer) and its blobs (float
arrays of their stored shapes)."""


class _Malformed(ValueError):
    """The bytes are not a protobuf message of the expected shape."""


def read_varint(data, position):
    """The varint at ``position`` of ``data``, and the position after it."""
    result = shift = 0
    while True:
        if position >= len(data):
            raise _Malformed('a varint runs past the end of its message')
        byte = data[position]
        position += 1
        result |= (byte & 0x7f) << shift
        if byte < 0x80:
            return result, position
        shift += 7
        if shift > 63:
            raise _Malformed('a varint is longer than 10 bytes')


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
            raise _Malformed(f'field {number} has the wire type '
                             f'{wire_type} (groups are not supported)')
        if position + size > end:
            raise _Malformed(f'field {number} runs past the end of its '
                             f'message')
        yield number, wire_type, data[position:position + size]
        position += size


def _blob(data):
    legacy = [0, 0, 0, 0]
    shape = None
    chunks = []
    for number, wire_type, value in fields(data):
        if number in _BLOB_DIMS and wire_type == VARINT:
            legacy[number - 1] = value
        elif number == _BLOB_SHAPE and wire_type == LENGTH_DELIMITED:
            shape = []
            for dim_number, dim_wire, dim in fields(value):
                if dim_number != _SHAPE_DIM:
                    continue
                if dim_wire == VARINT:
                    shape.append(dim)
                else:
                    shape.extend(_packed_varints(dim))
        elif number in (_BLOB_DATA, _BLOB_DOUBLE_DATA):
            if wire_type == VARINT:
                raise _Malformed('blob data is stored as varints')
            # A packed run, or one value of an unpacked repeated field.
            chunks.append(numpy.frombuffer(
                value, '<f4' if number == _BLOB_DATA else '<f8'))
    if len(chunks) == 1:
        array = chunks[0]  # no copy of a large blob
    else:
        array = numpy.concatenate(chunks or [numpy.zeros(0, '<f4')])
    if shape is None:
        shape = legacy if any(legacy) else [array.size]
    if math.prod(shape) != array.size:
        raise _Malformed(f'a blob of shape {tuple(shape)} holds '
                         f'{array.size} values')
    return array.reshape(shape)


def _packed_varints(data):
    position, values = 0, []
    while position < len(data):
        value, position = read_varint(data, position)
        values.append(value)
    return values


def _layer(data, name_field, type_field, blobs_field):
    name, type_, blobs = None, None, []
    for number, wire_type, value in fields(data):
        if number == name_field and wire_type == LENGTH_DELIMITED:
            name = bytes(value).decode('utf-8')
        elif number == type_field:
            type_ = value if wire_type == VARINT else bytes(value).decode(
                'utf-8')
        elif number == blobs_field and wire_type == LENGTH_DELIMITED:
            blobs.append(_blob(value))
    return CaffeLayer(name, type_, blobs)


def read_caffemodel(path):
    """The layers of the caffemodel file ``path``, in file order (a list
    of :class:`CaffeLayer`)."""
    with open(path, 'rb') as file:
        data = memoryview(file.read())
    try:
        return [_layer(value, *_LAYER_FIELDS[number])
                for number, wire_type, value in fields(data)
                if number in _LAYER_FIELDS
                and wire_type == LENGTH_DELIMITED]
    except (_Malformed, UnicodeDecodeError) as error:
        raise ValueError(f'read_caffemodel: {path} is not a readable '
                         f'caffemodel: {error}') from None


def _statistics(blobs):
    """A Caffe BatchNorm layer stores the mean and variance times a
    factor, and the factor (0 standing for statistics never updated)."""
    factor = float(blobs[2].ravel()[0])
    scale = 0.0 if factor == 0 else 1.0 / factor
    return {'avg_mean': blobs[0] * scale, 'avg_var': blobs[1] * scale}


# What each kind of Caffe layer fills in the link it maps onto.
_KINDS = {
    'weights': lambda blobs: dict(zip(('W', 'b'), blobs)),
    'statistics': _statistics,
    'scale': lambda blobs: dict(zip(('gamma', 'beta'), blobs)),
}


def transfer(layers, link, mapping, source):
    """Copy the blobs of Caffe ``layers`` into ``link``.

    Args:
        layers: :class:`CaffeLayer` objects (from :func:`read_caffemodel`).
        link: the link to fill.
        mapping: ``{caffe layer name: (link path, kind)}``: the path of the
            link receiving the blobs, as ``namedlinks`` writes it
            (``'/res2/a/conv1'``), and the kind of the Caffe layer:
            ``'weights'`` (blobs W, b: Convolution, InnerProduct),
            ``'statistics'`` (a BatchNorm layer: avg_mean, avg_var) or
            ``'scale'`` (a Scale layer: gamma, beta).
        source: names the file in errors.

    Every parameter of ``link`` must be filled by the mapping, and every
    blob must have the size of its destination (it is reshaped to the
    destination's shape: old files store 4-d blobs). Errors name the
    Caffe layer and the destination path, and are raised before anything
    is copied.
    """
    by_name = {layer.name: layer for layer in layers}
    links = dict(link.namedlinks())
    copies = []
    for caffe_name, (path, kind) in mapping.items():
        if caffe_name not in by_name:
            raise KeyError(f'{source} has no layer {caffe_name!r} (for '
                           f'{path})')
        if path not in links:
            raise ValueError(f'transfer: the {type(link).__name__} has no '
                             f'link {path} (for {caffe_name!r})')
        if kind not in _KINDS:
            raise ValueError(f'transfer: the kind of {caffe_name!r} must be '
                             f'one of {sorted(_KINDS)}, got {kind!r}')
        for name, blob in _KINDS[kind](by_name[caffe_name].blobs).items():
            target = getattr(links[path], name, None)
            if target is not None and not backend.is_array_supported(
                    target):
                target = target.array
            where = f'{path.rstrip("/")}/{name}'
            if target is None or target.size != blob.size:
                raise ValueError(
                    f'cannot load {where} from the layer {caffe_name!r} of '
                    f'{source}: the blob has shape {blob.shape}, the link '
                    f'{"has none" if target is None else target.shape}')
            copies.append((where, target, blob))
    filled = {where for where, _, _ in copies}
    unfilled = [path for path, _ in link.namedparams() if path not in filled]
    if unfilled:
        raise ValueError(f'transfer: the mapping fills no value of '
                         f'{", ".join(unfilled)}')
    for _, target, blob in copies:
        backend.copyto(target, blob.reshape(target.shape).astype(
            target.dtype))
