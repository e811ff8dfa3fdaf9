"""Reading the weights of a Caffe model file (``.caffemodel``) and moving
them into a link.

A caffemodel is the protocol buffer message ``NetParameter`` of BVLC
Caffe's ``caffe.proto``, read by :mod:`kusari.links.layers.caffe.caffe_pb`;
what converting weights needs is each layer's name, type and blobs, of
the current layers (``layer``) or the V1 layers of older models, VGG's
among them (``layers``).
"""
import collections
import math

from kusari.array import backend
from kusari.links.layers.caffe import _wire
from kusari.links.layers.caffe import caffe_function
from kusari.links.layers.caffe import caffe_pb

CaffeLayer = collections.namedtuple('CaffeLayer', 'name type blobs')
CaffeLayer.__doc__ = """A layer of a caffemodel: its name, its type (a
string, or the enum value of an old V1 layer) and its blobs (float
arrays of their stored shapes)."""


def _blob(blob):
    """The data of ``blob`` in its shape: BlobShape's, else the legacy
    4-d one, else flat."""
    array = caffe_function.blob_data(blob)
    shape = list(blob.shape.dim) if blob.HasField('shape') else None
    legacy = [blob.num, blob.channels, blob.height, blob.width]
    if shape is None:
        shape = legacy if any(legacy) else [array.size]
    if math.prod(shape) != array.size:
        raise _wire.Malformed(f'a blob of shape {tuple(shape)} holds '
                              f'{array.size} values')
    return array.reshape(shape)


def read_caffemodel(path):
    """The layers of the caffemodel file ``path``, in file order (a list
    of :class:`CaffeLayer`)."""
    with open(path, 'rb') as file:
        data = file.read()
    net = caffe_pb.NetParameter()
    try:
        net.MergeFromString(data)
        return [CaffeLayer(layer.name, layer.type,
                           [_blob(blob) for blob in layer.blobs])
                for layers in (net.layer, net.layers) for layer in layers]
    except (_wire.Malformed, UnicodeDecodeError) as error:
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
