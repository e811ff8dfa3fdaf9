"""Every function ONNX-Chainer 1.x converts (and more) exports at every
supported opset, passes onnx.checker and runs in onnxruntime to Kusari's
forward values."""
import numpy
import pytest

from kusari.autograd import functions as F
from kusari.onnx import MAXIMUM_OPSET_VERSION
from kusari.onnx import MINIMUM_OPSET_VERSION
from kusari.onnx import export
from kusari.onnx import replace_func
from kusari.onnx.functions import converters
from kusari.onnx.testing import input_generator as gen
from kusari.onnx.testing import runtime
from onnx_models import FunctionModel

pytest.importorskip('onnxruntime')

# The functions ONNX-Chainer 1.x (Chainer 7.8.1's) converts, by family:
# the 84 of seed 001's list and 18 more (Selu, Moveaxis, Pad, Rollaxis,
# SelectItem, TransposeSequence, Log, the trigonometric and hyperbolic
# functions, sign, GroupNormalization, n_step_gru).
SUPPORTED = """
ClippedReLU ELU HardSigmoid LeakyReLU LogSoftmax PReLUFunction ReLU Selu
Sigmoid Softmax Softplus Tanh
Cast Concat Copy Depth2Space Dstack ExpandDims GetItem Hstack Moveaxis Pad
Permutate Repeat Reshape ResizeImages Rollaxis SelectItem Separate Shape
Space2Depth SplitAxis Squeeze Stack Swapaxes Tile Transpose
TransposeSequence Vstack Where
Convolution2DFunction ConvolutionND Deconvolution2DFunction DeconvolutionND
EmbedIDFunction LinearFunction
SoftmaxCrossEntropy
Absolute Add AddConstant Arccos Arcsin Arctan ArgMax ArgMin BroadcastTo
Clip Cos Cosh Div DivFromConstant Exp Identity LinearInterpolate Log
LogSumExp MatMul Max Maximum Mean Min Minimum Mul MulConstant Neg
PowConstVar PowVarConst PowVarVar Prod RsqrtGPU sign Sin Sinh Sqrt Square
Sub SubFromConstant Sum Tan
Dropout
BatchNormalization FixedBatchNormalization GroupNormalization
LocalResponseNormalization NormalizeL2
AveragePooling2D AveragePoolingND MaxPooling2D MaxPoolingND ROIPooling2D
Unpooling2D
n_step_gru
""".split()

# Every opset; those where converters change what they emit (and the
# oldest and newest) in the default run, the others with --run-slow.
KEY_OPSETS = {MINIMUM_OPSET_VERSION, 9, 10, 11, 12, 13, 18, 22,
              MAXIMUM_OPSET_VERSION}
OPSETS = [pytest.param(version, marks=() if version in KEY_OPSETS
                       else pytest.mark.slow)
          for version in range(MINIMUM_OPSET_VERSION,
                               MAXIMUM_OPSET_VERSION + 1)]

rng = numpy.random.default_rng(0)


def normal(*shape):
    return rng.standard_normal(shape).astype(numpy.float32)


def positive(*shape):
    return rng.uniform(0.5, 2, shape).astype(numpy.float32)


x234 = gen.increasing(2, 3, 4)
a23, b23 = normal(2, 3), normal(2, 3)
image = normal(2, 4, 7, 7)
labels = numpy.array([[0, 2, -1], [1, 1, 0]], numpy.int32)
shape_of = replace_func.fake_as_funcnode(
    lambda x: numpy.asarray(x.shape), 'Shape', experimental_warning=False)


def bn_params(*shape):
    return {'gamma': positive(*shape), 'beta': normal(*shape),
            'mean': normal(*shape), 'var': positive(*shape)}


# name: (fn(model, *inputs), inputs, params, options)
CASES = {
    'ClippedReLU': (lambda m, x: F.clipped_relu(x, 0.5), [x234]),
    'ELU': (lambda m, x: F.elu(x, 0.7), [x234]),
    'HardSigmoid': (lambda m, x: F.hard_sigmoid(x * 4), [x234]),
    'LeakyReLU': (lambda m, x: F.leaky_relu(x, 0.1), [x234]),
    'LogSoftmax': (lambda m, x: F.log_softmax(x, axis=2), [x234]),
    'PReLUFunction': (lambda m, x: F.prelu(x, m.W), [x234],
                      {'W': normal(3)}),
    'ReLU': (lambda m, x: F.relu(x), [x234]),
    'Sigmoid': (lambda m, x: F.sigmoid(x), [x234]),
    'Softmax': (lambda m, x: (F.softmax(x), F.softmax(x, axis=2)), [x234]),
    'Softplus': (lambda m, x: (F.softplus(x), F.softplus(x, beta=2)),
                 [x234]),
    'Tanh': (lambda m, x: F.tanh(x), [x234]),
    'Cast': (lambda m, x: F.cast(x, numpy.float64), [x234]),
    'Concat': (lambda m, x, y: F.concat((x, y), axis=1), [a23, b23]),
    'Copy': (lambda m, x: F.copy(x, -1), [x234]),
    'Depth2Space': (lambda m, x: F.depth2space(x, 2), [normal(1, 8, 2, 3)]),
    'Dstack': (lambda m, x, y: F.dstack((x, y)), [a23, b23]),
    'ExpandDims': (lambda m, x: F.expand_dims(x, 1), [x234]),
    'GetItem': (lambda m, x: (x[1:, None, ::-1, 2], x[:, [2, 0]],
                              x[..., ::2], x[-1], x[:, -2:0:-1]), [x234]),
    'Hstack': (lambda m, x, y: F.hstack((x, y)), [a23, b23]),
    'Permutate': (lambda m, x: (
        F.permutate(x, numpy.array([2, 0, 1], numpy.int32), axis=1),
        F.permutate(x, numpy.array([1, 2, 0], numpy.int32), 1, True)),
        [x234]),
    'Repeat': (lambda m, x: (F.repeat(x, 2, axis=1),
                             F.repeat(x, (1, 0, 3), axis=1)), [x234]),
    'Reshape': (lambda m, x: F.reshape(x, (3, -1)), [x234]),
    'ResizeImages': (lambda m, x: (
        F.resize_images(x, (5, 7)),
        F.resize_images(x, (5, 3), align_corners=False),
        F.resize_images(x, (3, 7), mode='nearest')), [normal(1, 2, 3, 4)]),
    'Separate': (lambda m, x: F.separate(x, axis=1), [x234]),
    'Shape': (lambda m, x: shape_of(x), [x234]),
    'Space2Depth': (lambda m, x: F.space2depth(x, 2), [normal(1, 2, 4, 6)]),
    'SplitAxis': (lambda m, x: F.split_axis(x, 2, axis=2)
                  + F.split_axis(x, [1, 3], axis=-1), [x234]),
    'Squeeze': (lambda m, x: F.squeeze(x, axis=1), [normal(2, 1, 3, 1)]),
    'Stack': (lambda m, x, y: F.stack((x, y), axis=-1), [a23, b23]),
    'Swapaxes': (lambda m, x: F.swapaxes(x, 0, 2), [x234]),
    'Tile': (lambda m, x: (F.tile(x, (2, 1, 2)), F.tile(x, 2)), [a23]),
    'Transpose': (lambda m, x: (F.transpose(x, (1, 2, 0)), F.transpose(x)),
                  [x234]),
    'Vstack': (lambda m, x, y: F.vstack((x, y)), [a23, b23]),
    'Where': (lambda m, x, y: F.where(a23 > 0, x, y), [a23, b23]),
    'Convolution2DFunction': (lambda m, x: (
        F.convolution_2d(x, m.W, m.b, stride=2, pad=1),
        F.convolution_2d(x, m.W, stride=2, pad=1, cover_all=True),
        F.convolution_2d(x, m.W2, dilate=2, groups=2)), [image],
        {'W': normal(3, 4, 3, 3), 'b': normal(3), 'W2': normal(4, 2, 2, 3)}),
    'ConvolutionND': (lambda m, x: F.convolution_nd(
        x, m.W, m.b, stride=(1, 2, 1), pad=1), [normal(1, 2, 5, 6, 4)],
        {'W': normal(3, 2, 2, 3, 2), 'b': normal(3)}),
    'Deconvolution2DFunction': (lambda m, x: (
        F.deconvolution_2d(x, m.W, m.b, stride=2, pad=1),
        F.deconvolution_2d(x, m.W, stride=2, pad=1, outsize=(14, 14))),
        [image], {'W': normal(4, 3, 3, 3), 'b': normal(3)}),
    'DeconvolutionND': (lambda m, x: F.deconvolution_nd(
        x, m.W, m.b, stride=2), [normal(1, 2, 5)],
        {'W': normal(2, 3, 3), 'b': normal(3)}),
    'EmbedIDFunction': (lambda m, x: (
        F.embed_id(x, m.W), F.embed_id(x + 1, m.W, ignore_label=0)),
        [numpy.array([[0, 3], [2, 2]], numpy.int32)], {'W': normal(5, 3)}),
    'LinearFunction': (lambda m, x: (
        F.linear(x, m.W, m.b), F.linear(x, m.W),
        F.linear(F.reshape(x, (1, 2, 4)), m.W, m.b, n_batch_axes=2)),
        [normal(2, 4)], {'W': normal(3, 4), 'b': normal(3)}),
    'SoftmaxCrossEntropy': (lambda m, x, t: (
        F.softmax_cross_entropy(x, t),
        F.softmax_cross_entropy(x, t, normalize=False),
        F.softmax_cross_entropy(x, t, reduce='no'),
        F.softmax_cross_entropy(
            x, t, class_weight=numpy.array([1, 2, .5], numpy.float32))),
        [normal(2, 3, 3), labels]),
    'Absolute': (lambda m, x: F.absolute(x), [x234]),
    'Add': (lambda m, x, y: x + y, [a23, b23]),
    'AddConstant': (lambda m, x: x + 2, [x234]),
    'ArgMax': (lambda m, x: (F.argmax(x, axis=1), F.argmax(x)), [a23]),
    'ArgMin': (lambda m, x: (F.argmin(x, axis=1), F.argmin(x)), [a23]),
    'BroadcastTo': (lambda m, x: F.broadcast_to(x, (2, 3, 4)),
                    [normal(3, 1)]),
    'Clip': (lambda m, x: F.clip(x, -0.3, 0.5), [x234]),
    'Div': (lambda m, x, y: x / y, [a23, positive(2, 3)]),
    'DivFromConstant': (lambda m, x: 2 / x, [positive(2, 3)]),
    'Exp': (lambda m, x: F.exp(x), [x234]),
    'Identity': (lambda m, x: F.identity(x), [x234]),
    'LinearInterpolate': (lambda m, p, x, y: F.linear_interpolate(p, x, y),
                          [positive(2, 3) / 2, a23, b23]),
    'LogSumExp': (lambda m, x: (F.logsumexp(x, axis=1), F.logsumexp(x)),
                  [x234]),
    'MatMul': (lambda m, a, b: (
        F.matmul(a, b, transa=True), F.matmul(a, a, transb=True)),
        [normal(2, 4, 3), normal(2, 4, 5)]),
    'Max': (lambda m, x: (F.max(x, axis=1, keepdims=True), F.max(x)),
            [x234]),
    'Maximum': (lambda m, x, y: F.maximum(x, y), [a23, b23]),
    'Mean': (lambda m, x: (F.mean(x, axis=(0, 2)), F.mean(x)), [x234]),
    'Min': (lambda m, x: (F.min(x, axis=-1), F.min(x)), [x234]),
    'Minimum': (lambda m, x, y: F.minimum(x, y), [a23, b23]),
    'Mul': (lambda m, x, y: x * y, [a23, b23]),
    'MulConstant': (lambda m, x: x * 3, [x234]),
    'Neg': (lambda m, x: -x, [x234]),
    'PowConstVar': (lambda m, x: 2 ** x, [x234]),
    'PowVarConst': (lambda m, x: x ** 3, [x234]),
    'PowVarVar': (lambda m, x, y: x ** y, [positive(2, 3), b23]),
    'Prod': (lambda m, x: (F.prod(x, axis=1), F.prod(x)), [positive(2, 3)]),
    'RsqrtGPU': (lambda m, x: F.rsqrt(x), [positive(2, 3)]),
    'Sqrt': (lambda m, x: F.sqrt(x), [positive(2, 3)]),
    'Square': (lambda m, x: F.square(x), [x234]),
    'Sub': (lambda m, x, y: x - y, [a23, b23]),
    'SubFromConstant': (lambda m, x: 2 - x, [x234]),
    'Sum': (lambda m, x: (F.sum(x, axis=1), F.sum(x, keepdims=True)),
            [x234]),
    'BatchNormalization': (lambda m, x: F.batch_normalization(
        x, m.gamma, m.beta), [image], {'gamma': positive(4),
                                       'beta': normal(4)}),
    'FixedBatchNormalization': (lambda m, x: (
        F.fixed_batch_normalization(x, m.gamma, m.beta, m.mean, m.var),
        F.fixed_batch_normalization(
            x, m.gamma2, m.beta2, m.mean2, m.var2, axis=(0, 1))),
        [image], {**bn_params(4), **{
            f'{name}2': value for name, value in bn_params(7, 7).items()}}),
    'LocalResponseNormalization': (lambda m, x: (
        F.local_response_normalization(x * 3),
        F.local_response_normalization(x, n=2, k=1, alpha=0.5)), [image]),
    'NormalizeL2': (lambda m, x: F.normalize(x, axis=1), [x234]),
    'AveragePooling2D': (lambda m, x: (
        F.average_pooling_2d(x, 3, 2, 1), F.average_pooling_2d(x, 2)),
        [image]),
    'AveragePoolingND': (lambda m, x: F.average_pooling_nd(
        x, 2, pad=1, pad_value=None), [normal(1, 2, 3, 4, 5)]),
    'MaxPooling2D': (lambda m, x: (
        F.max_pooling_2d(x, 3, 2, 1), F.max_pooling_2d(x, 2),
        F.max_pooling_2d(x, 2, cover_all=False)), [image]),
    'MaxPoolingND': (lambda m, x: F.max_pooling_nd(x, 2, cover_all=False),
                     [normal(1, 2, 5)]),
    # Regions inside the image, across its edge and past it (empty bins).
    'ROIPooling2D': (lambda m, x: F.roi_pooling_2d(x, numpy.array(
        [[0, 1, 1, 5.2, 4], [1, 0, 2, 6, 6.2], [1, 8, 3, 14, 12.4],
         [0, 20, 20, 30, 30]], numpy.float32), 2, 3, 0.6), [image]),
    'Unpooling2D': (lambda m, x: (
        F.unpooling_2d(x, 2, outsize=(14, 13)),
        F.unpooling_2d(x, 3, 2, 1, cover_all=False)), [image]),
}




def n_step(name, n_layers, directions, gates, batches=(3, 2, 2, 1),
           in_size=3, hidden=4, **kwargs):
    """A case of the n-step RNN ``F.<name>`` (``gates`` weights per layer
    and direction, half on the input), over time steps of ``batches``
    rows; with ``cx`` for an LSTM (8 gates). The function is looked up at
    the call, where an export replaces it."""
    params = {}
    names = []
    for index in range(n_layers * directions):
        inputs = in_size if index < directions else directions * hidden
        names.append([f'w{index}_{g}' for g in range(gates)])
        for g in range(gates):
            params[f'w{index}_{g}'] = normal(
                hidden, inputs if g < gates // 2 else hidden)
            params[f'b{index}_{g}'] = normal(hidden)
    states = [normal(n_layers * directions, batches[0], hidden)
              for _ in range(2 if gates == 8 else 1)]

    def fn(m, *arrays):
        ws = [[getattr(m, name) for name in row] for row in names]
        bs = [[getattr(m, 'b' + name[1:]) for name in row] for row in names]
        states, xs = arrays[:len(arrays) - len(batches)], \
            arrays[len(arrays) - len(batches):]
        hy, *rest = getattr(F, name)(n_layers, 0.0, *states, ws, bs,
                                     list(xs), **kwargs)
        return (hy,) + tuple(rest[:-1]) + tuple(rest[-1])

    return fn, states + [normal(rows, in_size) for rows in batches], params


CASES.update({
    'Selu': (lambda m, x: F.selu(x), [x234]),
    'Moveaxis': (lambda m, x: F.moveaxis(x, 0, 2), [x234]),
    'Pad': (lambda m, x: (
        F.pad(x, 1, 'constant'),
        F.pad(x, ((0, 1), (2, 0), (1, 1)), 'constant', constant_values=2),
        F.pad(x, ((1, 0), (0, 2), (3, 1)), 'edge'),
        F.pad(x, ((1, 1), (2, 1), (0, 3)), 'reflect'),
        F.pad(x, ((1, 1), (3, 4), (0, 1)), 'reflect'),
        F.pad(x, ((1, 2), (0, 2), (1, 0)), 'symmetric'),
        F.pad(x, ((0, 1), (1, 2), (2, 1)), 'wrap'),
        F.pad(x, ((0, 1), (1, 2), (5, 1)), 'wrap')), [x234]),
    'Rollaxis': (lambda m, x: F.rollaxis(x, 2), [x234]),
    'SelectItem': (lambda m, x, t: F.select_item(x, t),
                   [a23, numpy.array([2, 0], numpy.int32)]),
    'TransposeSequence': (lambda m, x, y, z: F.transpose_sequence((x, y, z)),
                          [normal(3, 2), normal(2, 2), normal(1, 2)]),
    'Arccos': (lambda m, x: F.arccos(x * 0.9), [x234]),
    'Arcsin': (lambda m, x: F.arcsin(x * 0.9), [x234]),
    'Arctan': (lambda m, x: F.arctan(x * 3), [x234]),
    'Cos': (lambda m, x: F.cos(x * 3), [x234]),
    'Cosh': (lambda m, x: F.cosh(x), [x234]),
    'Log': (lambda m, x: F.log(x), [positive(2, 3)]),
    'sign': (lambda m, x: F.sign(x) * x, [x234]),
    'Sin': (lambda m, x: F.sin(x * 3), [x234]),
    'Sinh': (lambda m, x: F.sinh(x), [x234]),
    'Tan': (lambda m, x: F.tan(x), [x234]),
    'GroupNormalization': (lambda m, x: F.group_normalization(
        x, 2, m.gamma, m.beta), [image], {'gamma': positive(4),
                                          'beta': normal(4)}),
    'n_step_gru': n_step('n_step_gru', 2, 1, 6),
})

# Converters beyond ONNX-Chainer's: the LSTM cell (its batch shrinking
# too), x / constant, layer normalization and the other n-step RNNs.
EXTRA_CASES = {
    'GatedCell': (lambda m, c, x: F.lstm(c, x) + F.lstm(c, x[:1]),
                  [normal(2, 3), normal(2, 12)]),
    'DivByConstant': (lambda m, x: x / 3.0, [x234]),
    'LayerNormalization': (lambda m, x: F.layer_normalization(
        x, m.gamma, m.beta), [a23], {'gamma': positive(3),
                                     'beta': normal(3)}),
    'n_step_bigru': n_step('n_step_bigru', 2, 2, 6),
    'n_step_lstm': n_step('n_step_lstm', 2, 1, 8),
    'n_step_bilstm': n_step('n_step_bilstm', 1, 2, 8, batches=(2, 2)),
    'n_step_rnn': n_step('n_step_rnn', 1, 1, 2, activation='relu'),
    'n_step_birnn': n_step('n_step_birnn', 2, 2, 2),
}
ALL_CASES = {**CASES, **EXTRA_CASES}


def test_every_supported_function_has_a_case():
    assert sorted([*CASES, 'Dropout']) == sorted(SUPPORTED)
    assert len(SUPPORTED) == 102


@pytest.mark.parametrize('opset_version', OPSETS)
@pytest.mark.parametrize('name', sorted(ALL_CASES))
def test_function_matches_onnxruntime(name, opset_version):
    """The sweep: every converter at every opset."""
    fn, inputs, *rest = ALL_CASES[name]
    model = FunctionModel(fn, *rest)
    runtime.check_export(model, inputs, rtol=1e-4, atol=1e-5,
                         opset_version=opset_version)


def test_every_converter_is_exercised():
    used = {'Dropout'}  # by the test below
    for fn, inputs, *rest in ALL_CASES.values():
        nodes = export(FunctionModel(fn, *rest), inputs).graph.node
        used |= {node.name.split('/')[0].rsplit('_', 1)[0]
                 for node in nodes}
    assert set(converters) <= used


@pytest.mark.parametrize('opset_version', OPSETS)
def test_dropout_exports_the_inference_identity(opset_version):
    x = gen.increasing(2, 5)
    model = FunctionModel(lambda m, x: F.dropout(x, 0.3))
    onnx_model = runtime.check_export(model, [x], opset_version=opset_version)
    assert [n.op_type for n in onnx_model.graph.node] == ['Identity']
    onnx_model = export(
        model, [x], train=True, opset_version=opset_version)
    assert [n.op_type for n in onnx_model.graph.node
            if n.op_type != 'Constant'] == ['Dropout']
    numpy.testing.assert_array_equal(
        runtime.run(onnx_model, {'input_0': x})[0], x)


# Cases whose functions read host arrays of the test (labels, regions,
# indices, a condition): on a GPU they would mix devices.
HOST_ARRAYS = {'Permutate', 'ROIPooling2D', 'SoftmaxCrossEntropy', 'Where'}


@pytest.mark.gpu
@pytest.mark.parametrize('opset_version', [MINIMUM_OPSET_VERSION, 13, 21])
@pytest.mark.parametrize('name', sorted(set(ALL_CASES) - HOST_ARRAYS))
def test_function_on_gpu_matches_onnxruntime(name, opset_version):
    """Converters read what they need from the host: a model on a GPU
    exports as on the CPU."""
    from kusari.array import backend
    device = backend.get_device('@cupy:0')
    fn, inputs, *rest = ALL_CASES[name]
    model = FunctionModel(fn, *rest)
    model.to_device(device)
    runtime.check_export(model, [device.send(x) for x in inputs],
                         rtol=1e-4, atol=1e-5, opset_version=opset_version)
