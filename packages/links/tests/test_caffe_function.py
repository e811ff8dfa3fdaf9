"""CaffeFunction and the caffe.proto messages it reads: the wire format
against a hand-written encoder, round trips, and networks built from
model files run against NumPy."""
import warnings

import numpy
import pytest

from kusari.autograd import functions as F
from kusari.links import layers as L
from kusari.links.layers.caffe import CaffeFunction
from kusari.links.layers.caffe import caffe_pb
from kusari.links.layers.caffe import _wire
from protobuf_bytes import field, varint


# -- messages ----------------------------------------------------------------

def test_serialized_bytes_follow_the_wire_format():
    blob = caffe_pb.BlobProto()
    blob.shape.dim.extend([2, 3])
    blob.data.extend([1.5, -2])
    blob.num = 2
    expected = (varint(1 << 3) + varint(2)                       # num
                + field(5, numpy.array([1.5, -2], '<f4').tobytes())  # packed
                + field(7, field(1, varint(2) + varint(3))))   # shape.dim
    assert blob.SerializeToString() == expected
    # Unpacked repeated uint32 (caffe.proto's default), a negative int32.
    conv = caffe_pb.ConvolutionParameter(kernel_size=[3, 5])
    reshape = caffe_pb.ReshapeParameter(num_axes=-2)
    assert conv.SerializeToString() == \
        varint(4 << 3) + varint(3) + varint(4 << 3) + varint(5)
    assert reshape.SerializeToString() == varint(3 << 3) + varint(-2)
    assert len(varint(-2)) == 10


def test_messages_round_trip_and_keep_presence():
    net = caffe_pb.NetParameter(name='net')
    layer = net.layer.add(name='conv', type='Convolution')
    layer.bottom.append('data')
    layer.convolution_param.group = 1  # the default, set explicitly
    layer.slice_param.slice_dim = 0
    blob = layer.blobs.add()
    blob.data.extend(numpy.arange(6, dtype=numpy.float32))
    copy = caffe_pb.NetParameter()
    copy.ParseFromString(net.SerializeToString())
    assert copy.name == 'net' and len(copy.layer) == 1
    read = copy.layer[0]
    assert (read.name, read.type, list(read.bottom)) == \
        ('conv', 'Convolution', ['data'])
    assert read.HasField('convolution_param')
    assert read.convolution_param.HasField('group')
    assert read.slice_param.HasField('slice_dim')
    assert not read.slice_param.HasField('axis')
    assert read.slice_param.axis == 1  # the default
    assert not read.HasField('pooling_param')
    assert read.pooling_param.stride == 1
    # Reading an unset sub-message does not make it present.
    assert not read.HasField('pooling_param')
    numpy.testing.assert_array_equal(numpy.asarray(read.blobs[0].data),
                                     numpy.arange(6))
    assert read.blobs[0].data == list(range(6))


def test_repeated_numbers_are_read_packed_or_not():
    unpacked = b''.join(varint(5 << 3 | 5) + numpy.float32(v).tobytes()
                        for v in (1, 2))
    packed = field(5, numpy.array([3, 4], '<f4').tobytes())
    blob = caffe_pb.BlobProto()
    blob.MergeFromString(unpacked + packed)
    assert list(blob.data) == [1, 2, 3, 4]
    shape = caffe_pb.BlobShape()
    shape.MergeFromString(
        field(1, varint(7) + varint(8)) + varint(8) + varint(9))
    assert list(shape.dim) == [7, 8, 9]


def test_unknown_fields_are_skipped_and_bad_values_refused():
    layer = caffe_pb.LayerParameter()
    layer.MergeFromString(field(1, b'l') + field(100, b'\x08\x01')  # transform
                          + varint(99 << 3) + varint(5))
    assert layer.name == 'l'
    with pytest.raises(TypeError, match='LayerParameter.name'):
        layer.name = 3
    with pytest.raises(TypeError, match='uint32 field'):
        caffe_pb.PoolingParameter().stride = 1.5
    with pytest.raises(AttributeError, match='no field'):
        layer.nonexistent = 1
    with pytest.raises(AttributeError, match='Assignment not allowed'):
        layer.bottom = ['x']
    with pytest.raises(_wire.Malformed):
        caffe_pb.NetParameter().MergeFromString(field(100, b'\x0a\x09'))


def test_float_fields_hold_float32_values():
    param = caffe_pb.DropoutParameter()
    param.dropout_ratio = 0.1
    assert param.dropout_ratio == float(numpy.float32(0.1))


# -- networks ----------------------------------------------------------------

def _write(tmp_path, net):
    path = tmp_path / 'net.caffemodel'
    path.write_bytes(net.SerializeToString())
    return str(path)


def _blob(layer, array, legacy=False):
    blob = layer.blobs.add()
    array = numpy.asarray(array, numpy.float32)
    if legacy:
        blob.num, blob.channels, blob.height, blob.width = \
            (1,) * (4 - array.ndim) + array.shape
    else:
        blob.shape.dim.extend(array.shape)
    blob.data.extend(array.ravel())


def _add(net, v1, name, type_, bottom, top):
    layers = net.layers if v1 else net.layer
    layer = layers.add(name=name, bottom=bottom, top=top)
    layer.type = getattr(caffe_pb.V1LayerParameter, type_[1]) if v1 \
        else type_[0]
    return layer


@pytest.mark.parametrize('v1', [False, True])
def test_network_runs_as_the_numpy_reference(tmp_path, v1):
    rng = numpy.random.RandomState(0)
    W1 = rng.uniform(-1, 1, (4, 3, 3, 3)).astype(numpy.float32)
    b1 = rng.uniform(-1, 1, 4).astype(numpy.float32)
    W2 = rng.uniform(-1, 1, (5, 16)).astype(numpy.float32)
    b2 = rng.uniform(-1, 1, 5).astype(numpy.float32)
    net = caffe_pb.NetParameter()
    _add(net, v1, 'data', ('Data', 'DATA'), [], ['data'])
    conv = _add(net, v1, 'conv1', ('Convolution', 'CONVOLUTION'),
                ['data'], ['conv1'])
    conv.convolution_param.kernel_size.append(3)
    conv.convolution_param.pad.append(1)
    _blob(conv, W1, legacy=v1)
    _blob(conv, b1, legacy=v1)
    _add(net, v1, 'relu1', ('ReLU', 'RELU'), ['conv1'], ['conv1'])
    pool = _add(net, v1, 'pool1', ('Pooling', 'POOLING'),
                ['conv1'], ['pool1'])
    pool.pooling_param.kernel_size = 2
    pool.pooling_param.stride = 2
    fc = _add(net, v1, 'fc', ('InnerProduct', 'INNER_PRODUCT'),
              ['pool1'], ['fc'])
    _blob(fc, W2, legacy=v1)
    _blob(fc, b2, legacy=v1)
    _add(net, v1, 'prob', ('Softmax', 'SOFTMAX'), ['fc'], ['prob'])
    func = CaffeFunction(_write(tmp_path, net))

    assert [name for name, _, _ in func.layers] == \
        ['conv1', 'relu1', 'pool1', 'fc', 'prob']
    assert isinstance(func.conv1, L.Convolution2D)
    x = rng.uniform(-1, 1, (2, 3, 4, 4)).astype(numpy.float32)
    prob, fc_out = func(inputs={'data': x}, outputs=['prob', 'fc'])
    h = F.relu(F.convolution_2d(x, W1, b1, pad=1))
    h = F.max_pooling_2d(h, 2, stride=2)
    expected = F.linear(h, W2, b2)
    numpy.testing.assert_allclose(fc_out.array, expected.array, rtol=1e-5)
    numpy.testing.assert_allclose(prob.array, F.softmax(expected).array,
                                  rtol=1e-5)
    # A disabled layer stops what depends on it.
    func(inputs={'data': x}, outputs=[], disable=['fc'])
    assert 'prob' not in func.variables and 'pool1' in func.variables


def test_grouped_convolution_fills_diagonal_blocks(tmp_path):
    net = caffe_pb.NetParameter()
    conv = _add(net, False, 'c', ('Convolution', None), ['x'], ['y'])
    conv.convolution_param.kernel_size.append(1)
    conv.convolution_param.group = 2
    conv.convolution_param.bias_term = False
    W = numpy.arange(8, dtype=numpy.float32).reshape(4, 2, 1, 1)
    _blob(conv, W)
    func = CaffeFunction(_write(tmp_path, net))
    assert func.c.b is None and func.c.W.shape == (4, 4, 1, 1)
    numpy.testing.assert_array_equal(func.c.W.array[:2, :2], W[:2])
    numpy.testing.assert_array_equal(func.c.W.array[2:, 2:], W[2:])
    numpy.testing.assert_array_equal(func.c.W.array[:2, 2:], 0)
    x = numpy.random.rand(1, 4, 2, 2).astype(numpy.float32)
    y, = func(inputs={'x': x}, outputs=['y'])
    expected = F.convolution_2d(x, W, groups=2)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-6)


def test_batchnorm_scale_eltwise_and_split(tmp_path):
    net = caffe_pb.NetParameter()
    bn = _add(net, False, 'bn', ('BatchNorm', None), ['x'], ['bn'])
    _blob(bn, [2, 4])        # mean times the factor
    _blob(bn, [8, 16])       # variance times the factor
    _blob(bn, [2])           # the factor
    bn.batch_norm_param.use_global_stats = True
    sc = _add(net, False, 'sc', ('Scale', None), ['bn'], ['sc'])
    sc.scale_param.bias_term = True
    _blob(sc, [2, 3])
    _blob(sc, [1, -1])
    _add(net, False, 'split', ('Split', None), ['sc'], ['a', 'b'])
    add = _add(net, False, 'sum', ('Eltwise', None), ['a', 'b'], ['sum'])
    add.eltwise_param.coeff.extend([1, 2])
    func = CaffeFunction(_write(tmp_path, net))
    numpy.testing.assert_allclose(func.bn.avg_mean, [1, 2])
    numpy.testing.assert_allclose(func.bn.avg_var, [4, 8])
    assert func.split_map == {'a': 'sc', 'b': 'sc'}
    x = numpy.array([[3, 6]], numpy.float32)
    y, = func(inputs={'x': x}, outputs=['sum'])
    normalized = (x - [1, 2]) / numpy.sqrt(numpy.array([4, 8]) + 1e-5)
    numpy.testing.assert_allclose(
        y.array, 3 * (normalized * [2, 3] + [1, -1]), rtol=1e-5)


def test_eltwise_coefficients_must_match_the_inputs(tmp_path):
    net = caffe_pb.NetParameter()
    add = _add(net, False, 'sum', ('Eltwise', None), ['a', 'b'], ['y'])
    add.eltwise_param.coeff.append(1)
    func = CaffeFunction(_write(tmp_path, net))
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(ValueError, match='1 coefficients for 2 inputs'):
        func(inputs={'a': x, 'b': x}, outputs=['y'])
    with pytest.raises(AssertionError):  # as Chainer asserts it
        func(inputs={'a': x, 'b': x}, outputs=['y'])


def test_unsupported_layers_and_options(tmp_path):
    net = caffe_pb.NetParameter()
    _add(net, False, 'tanh', ('TanH', None), ['x'], ['y'])
    with pytest.warns(UserWarning, match='does not support TanH layer'):
        func = CaffeFunction(_write(tmp_path, net))
    assert func.layers == []
    with pytest.raises(ValueError, match='train argument'):
        func(inputs={}, outputs=[], train=False)
    net = caffe_pb.NetParameter()
    pool = _add(net, False, 'p', ('Pooling', None), ['x'], ['y'])
    pool.pooling_param.pool = caffe_pb.PoolingParameter.STOCHASTIC
    with pytest.raises(RuntimeError, match='Stochastic pooling'):
        CaffeFunction(_write(tmp_path, net))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        CaffeFunction(_write(tmp_path, caffe_pb.NetParameter()))
