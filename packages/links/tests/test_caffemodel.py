"""Reading caffemodel files (protobuf wire format, written here by a
minimal writer of the same caffe.proto fields) and converting them to the
NPZ files the pre-trained models load."""
import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kusari.links import Chain
from kusari.links import layers as L
from kusari.links.layers.caffe import _wire
from kusari.links.layers.model.vision import _caffemodel
from protobuf_bytes import field, varint

# -- a minimal protobuf writer of NetParameter -----------------------------


def blob(array, legacy=False, packed=True, double=False):
    array = numpy.asarray(array)
    if legacy:  # num, channels, height, width: the shape padded to 4-d
        dims = (1,) * (4 - array.ndim) + array.shape
        message = b''.join(field(n, d) for n, d in enumerate(dims, 1))
    else:
        message = field(7, field(1, b''.join(varint(d)
                                             for d in array.shape)))
    number, dtype = (8, '<f8') if double else (5, '<f4')
    values = array.astype(dtype).ravel()
    if packed:
        message += field(number, values.tobytes())
    else:  # one fixed-size field per value
        wire = 1 if double else 5
        message += b''.join(varint(number << 3 | wire) + v.tobytes()
                            for v in values)
    return message


def layer(name, blobs, v1=False, layer_type='Convolution', **options):
    if v1:  # V1LayerParameter: name 4, type 5 (enum), blobs 6
        body = field(4, name.encode()) + field(5, 4) + b''.join(
            field(6, blob(b, **options)) for b in blobs)
        return field(2, body)
    body = (field(1, name.encode()) + field(2, layer_type.encode())
            + field(3, b'data')  # a bottom: skipped by the reader
            + b''.join(field(7, blob(b, **options)) for b in blobs))
    return field(100, body)


def write(path, *layers):
    # Fields the reader skips: the net's name, and a 64-bit fixed field.
    path.write_bytes(field(1, b'net') + varint(9 << 3 | 1) + bytes(8)
                     + b''.join(layers))
    return path


# -- the reader ------------------------------------------------------------


@given(st.integers(0, 2 ** 64 - 1))
def test_varints_round_trip(value):
    data = memoryview(varint(value) + b'\x05')
    assert _wire.read_varint(data, 0) == (value, len(data) - 1)
    assert _wire.encode_varint(value) == varint(value)


@pytest.mark.parametrize('options', [
    {}, {'legacy': True}, {'packed': False}, {'double': True},
    {'double': True, 'packed': False}, {'v1': True}])
def test_layers_and_blobs_are_read(tmp_path, options):
    weights = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 2, 2) - 5
    bias = numpy.array([0.5, -1.25], numpy.float32)
    path = write(tmp_path / 'net.caffemodel',
                 layer('conv1', [weights, bias], **options),
                 layer('relu1', [], **options))
    conv, relu = _caffemodel.read_caffemodel(path)
    assert (conv.name, relu.name, relu.blobs) == ('conv1', 'relu1', [])
    assert conv.type == (4 if options.get('v1') else 'Convolution')
    expected_bias = bias.reshape(1, 1, 1, 2) if options.get('legacy') \
        else bias
    numpy.testing.assert_array_equal(conv.blobs[0], weights)
    numpy.testing.assert_array_equal(conv.blobs[1], expected_bias,
                                     strict=not options.get('double'))


@pytest.mark.parametrize('damage', [
    lambda data: data[:-3],                         # truncated
    lambda data: data + varint(7 << 3 | 3),         # a group
    lambda data: data + b'\xff' * 11,               # an endless varint
])
def test_malformed_files_raise_naming_the_file(tmp_path, damage):
    path = write(tmp_path / 'net.caffemodel',
                 layer('conv1', [numpy.ones(3)]))
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(ValueError, match='net.caffemodel is not a readable'):
        _caffemodel.read_caffemodel(path)


def test_blob_whose_shape_does_not_match_its_data(tmp_path):
    message = field(7, field(1, varint(4))) + field(
        5, numpy.ones(3, '<f4').tobytes())
    path = tmp_path / 'bad.caffemodel'
    path.write_bytes(field(100, field(1, b'x') + field(7, message)))
    with pytest.raises(ValueError, match=r'shape \(4,\) holds 3 values'):
        _caffemodel.read_caffemodel(path)


# -- moving layers into a link ---------------------------------------------


class Small(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(2, 3, 2)
            self.bn = L.BatchNormalization(3)
            self.fc = L.Linear(12, 4, nobias=True)


MAPPING = {'conv': ('/conv', 'weights'), 'bn': ('/bn', 'statistics'),
           'scale': ('/bn', 'scale'), 'fc': ('/fc', 'weights')}


def _small_layers(rng, factor=4.0):
    def draw(*shape):
        return rng.uniform(-1, 1, shape).astype(numpy.float32)
    return {'conv': [draw(3, 2, 2, 2), draw(3)],
            'bn': [draw(3) * factor, draw(3) ** 2 * factor,
                   numpy.array([factor], numpy.float32)],
            'scale': [draw(3), draw(3)],
            # A V1 file stores the fully connected weights 4-d.
            'fc': [draw(1, 1, 4, 12)],
            'prob': []}


def _read(tmp_path, layers):
    path = write(tmp_path / 'small.caffemodel', *[
        layer(name, blobs) for name, blobs in layers.items()])
    return _caffemodel.read_caffemodel(path), str(path)


def test_transfer_fills_weights_statistics_and_scale(tmp_path):
    layers = _small_layers(numpy.random.default_rng(0))
    model = Small()
    caffe_layers, path = _read(tmp_path, layers)
    _caffemodel.transfer(caffe_layers, model, MAPPING, path)
    conv, bn, scale, fc = (layers[k] for k in ('conv', 'bn', 'scale', 'fc'))
    numpy.testing.assert_array_equal(model.conv.W.array, conv[0])
    numpy.testing.assert_array_equal(model.conv.b.array, conv[1])
    numpy.testing.assert_allclose(model.bn.avg_mean, bn[0] / 4, rtol=1e-6)
    numpy.testing.assert_allclose(model.bn.avg_var, bn[1] / 4, rtol=1e-6)
    numpy.testing.assert_array_equal(model.bn.gamma.array, scale[0])
    numpy.testing.assert_array_equal(model.bn.beta.array, scale[1])
    numpy.testing.assert_array_equal(model.fc.W.array, fc[0].reshape(4, 12))


def test_zero_factor_means_zero_statistics(tmp_path):
    layers = _small_layers(numpy.random.default_rng(0), factor=0.0)
    model = Small()
    caffe_layers, path = _read(tmp_path, layers)
    _caffemodel.transfer(caffe_layers, model, MAPPING, path)
    assert not model.bn.avg_mean.any() and not model.bn.avg_var.any()


@pytest.mark.parametrize('change, error, message', [
    (lambda layers, mapping: layers.update(
        fc=[numpy.ones((4, 11), numpy.float32)]),
     ValueError, r"cannot load /fc/W from the layer 'fc' of .*small"
                 r".*\(4, 11\), the link \(4, 12\)"),
    (lambda layers, mapping: layers.pop('scale'), KeyError,
     "no layer 'scale' \\(for /bn\\)"),
    (lambda layers, mapping: mapping.pop('conv'), ValueError,
     'fills no value of /conv/W, /conv/b'),
    (lambda layers, mapping: layers['fc'].append(numpy.ones(4)),
     ValueError, '/fc/b .* the link has none'),
    (lambda layers, mapping: mapping.update(fc=('/nope', 'weights')),
     ValueError, "has no link /nope \\(for 'fc'\\)"),
    (lambda layers, mapping: mapping.update(fc=('/fc', 'bias')),
     ValueError, "the kind of 'fc' must be one of"),
])
def test_transfer_errors_change_nothing(tmp_path, change, error, message):
    layers = _small_layers(numpy.random.default_rng(0))
    mapping = dict(MAPPING)
    change(layers, mapping)
    model = Small()
    before = {path: p.array.copy() for path, p in model.namedparams()}
    caffe_layers, path = _read(tmp_path, layers)
    with pytest.raises(error, match=message):
        _caffemodel.transfer(caffe_layers, model, mapping, path)
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(param.array, before[name])


# -- the models ------------------------------------------------------------


def fake_caffemodel(model, path, rng, v1=False):
    """A caffemodel with random blobs of the shapes ``model`` needs, laid
    out as its ``caffe_layers`` says."""
    links = dict(model.namedlinks())
    layers = []
    for caffe_name, (link_path, kind) in model.caffe_layers.items():
        link = links[link_path]
        if kind == 'weights':
            arrays = [p.array for p in (link.W, link.b) if p is not None]
        elif kind == 'statistics':
            arrays = [link.avg_mean, link.avg_var, numpy.ones(1)]
        else:
            arrays = [link.gamma.array, link.beta.array]
        blobs = [rng.uniform(-1, 1, a.shape).astype(numpy.float32)
                 for a in arrays]
        layers.append(layer(caffe_name, blobs, v1=v1, legacy=v1))
    return write(path, *layers)


def _assert_converted(model_class, tmp_path, v1=False):
    source = model_class(pretrained_model=None)
    caffemodel = fake_caffemodel(source, tmp_path / 'm.caffemodel',
                                 numpy.random.default_rng(1), v1=v1)
    model_class.convert_caffemodel_to_npz(caffemodel, tmp_path / 'm.npz')
    loaded = model_class(pretrained_model=tmp_path / 'm.npz')
    by_name = {layer.name: layer for layer in
               _caffemodel.read_caffemodel(caffemodel)}
    links = dict(loaded.namedlinks())
    for caffe_name, (path, kind) in loaded.caffe_layers.items():
        if kind == 'weights':
            first = by_name[caffe_name].blobs[0]
            numpy.testing.assert_array_equal(
                links[path].W.array, first.reshape(links[path].W.shape))


def test_googlenet_converts_and_loads(tmp_path):
    _assert_converted(L.GoogLeNet, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize('model_class', [L.ResNet50Layers, L.VGG16Layers])
def test_real_size_models_convert_and_load(tmp_path, model_class):
    # VGG16: 138M parameters, ~1.7 GB of memory through the conversion.
    _assert_converted(model_class, tmp_path,
                      v1=model_class is L.VGG16Layers)


@pytest.mark.parametrize('n_layers, present, absent', [
    (50, 'res4f_branch2c', 'res4b1_branch2a'),
    (101, 'res4b22_branch2c', 'res4b23_branch2a'),
    (152, 'bn3b7_branch2b', 'res3b8_branch2a'),
])
def test_resnet_layer_names(n_layers, present, absent):
    model = object.__new__(L.ResNet50Layers)
    model.n_layers = n_layers
    layers = model.caffe_layers
    assert present in layers and absent not in layers
    assert layers['res2a_branch1'] == ('/res2/a/conv4', 'weights')
    assert layers['scale5c_branch2a'] == ('/res5/b2/bn1', 'scale')


def test_resnet_n_layers_must_match_the_class(tmp_path):
    with pytest.raises(ValueError, match='n_layers is 50 for this class'):
        L.ResNet50Layers.convert_caffemodel_to_npz(
            tmp_path / 'x.caffemodel', tmp_path / 'x.npz', n_layers=101)

