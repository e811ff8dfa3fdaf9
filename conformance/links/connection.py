"""Records of the connection layers: linear maps, convolutions,
embeddings, and the chains built from them."""
import functools

import numpy

from harness.link_record import link_record
from kusari.array import backend
from kusari.array import initializers
from kusari.array.configuration import get_dtype
from kusari.autograd import functions as F
from kusari.links import layers as L


def uniform(*shapes):
    """``inputs`` drawing one array per shape, uniform in [-1, 1]."""
    return lambda rng: tuple(rng.uniform(-1, 1, shape) for shape in shapes)


def linear(x, link):
    """``link``'s (a Linear) map of ``x`` by the documented function."""
    return F.linear(x, link.W.array, None if link.b is None
                    else link.b.array)


def conv(x, link, **options):
    """``link``'s convolution of ``x`` by the documented function."""
    bias = None if link.b is None else link.b.array
    return F.convolution_2d(x, link.W.array, bias, **options)


def zero_bias(link):
    """The bias a layer starts with by default: zeros of ``link.b``'s
    shape (``link.b`` must exist: ``nobias`` defaults to False)."""
    return link.xp.zeros_like(link.b.array)


def absent(param, name='b'):
    """None, asserting that the link's parameter ``name`` (``param``) is
    None: the link was built without it."""
    assert param is None, f'the link has a parameter {name}; expected none'


def no_bias(link):
    """None, asserting that ``link`` was built without a bias."""
    return absent(link.b)


def given(values):
    """``values`` (nested lists, float64) as an array of the configured
    dtype: a parameter given to a constructor, and the reference's
    copy of it."""
    return numpy.asarray(values, numpy.float64).astype(get_dtype())


def on(link, values):
    """``given(values)`` on ``link``'s device."""
    return link.xp.asarray(given(values))


# Parameters given as arrays to constructors and from_params; the
# references use these constants, so a constructor option dropped shows.
W_4x3 = numpy.linspace(-1, 1, 12).reshape(4, 3)
W_5x3 = numpy.linspace(-1, 1, 15).reshape(5, 3)
B_4 = [0.5, -0.25, 0.125, 1.0]
W_CONV = numpy.linspace(-1, 1, 24).reshape(3, 2, 2, 2)
W_GROUPED = numpy.linspace(-1, 1, 16).reshape(4, 1, 2, 2)
B_3 = [0.25, -0.5, 0.75]
_BILINEAR_W = numpy.linspace(-1, 1, 24).reshape(2, 3, 4)

link_record(
    'Linear', lambda: L.Linear(3, 4), uniform((2, 3)),
    lambda link, x: F.linear(x, link.W.array, zero_bias(link)),
    lazy=lambda: L.Linear(None, 4))
link_record(
    'Linear:nobias', lambda: L.Linear(3, 4, nobias=True), uniform((2, 3)),
    lambda link, x: F.linear(x, link.W.array, no_bias(link)),
    lazy=lambda: L.Linear(4, nobias=True))
link_record(
    # The first two axes are batch axes; the last two are flattened.
    'Linear:n_batch_axes_2', lambda: L.Linear(6, 4), uniform((2, 2, 3, 2)),
    lambda link, x: F.linear(x, link.W.array, zero_bias(link),
                             n_batch_axes=2),
    call=lambda link, x: link(x, n_batch_axes=2),
    lazy=lambda: L.Linear(None, 4))
link_record(
    'Linear:initializers',
    lambda: L.Linear(3, 4, initialW=given(W_4x3), initial_bias=0.75),
    uniform((2, 3)),
    lambda link, x: F.linear(x, on(link, W_4x3), on(link, [0.75] * 4)),
    lazy=lambda: L.Linear(4, initialW=given(W_4x3), initial_bias=0.75))
link_record(
    'Linear:from_params',
    lambda: L.Linear.from_params(given(W_4x3), given(B_4)), uniform((2, 3)),
    lambda link, x: F.linear(x, on(link, W_4x3), on(link, B_4)),
    reason='the parameters are the arguments; there is no lazy form')
link_record(
    'Linear:from_params_nobias',
    lambda: L.Linear.from_params(given(W_4x3), nobias=True),
    uniform((2, 3)),
    lambda link, x: F.linear(x, on(link, W_4x3), no_bias(link)),
    reason='the parameters are the arguments; there is no lazy form')
link_record(
    'Linear:from_params_zero_bias',
    lambda: L.Linear.from_params(given(W_4x3)), uniform((2, 3)),
    lambda link, x: F.linear(x, on(link, W_4x3), zero_bias(link)),
    reason='the parameters are the arguments; there is no lazy form')
link_record(
    # V1 and V2 LeCun normal, b zero by default.
    'Bilinear', lambda: L.Bilinear(2, 3, 4), uniform((2, 2), (2, 3)),
    lambda link, e1, e2: F.bilinear(e1, e2, link.W.array, link.V1.array,
                                    link.V2.array, zero_bias(link)),
    reason='both input sizes are arguments; there is no lazy form')
link_record(
    'Bilinear:nobias', lambda: L.Bilinear(2, 3, 4, nobias=True),
    uniform((2, 2), (2, 3)),
    lambda link, e1, e2: F.bilinear(
        e1, e2, link.W.array, absent(getattr(link, 'V1', None), 'V1')),
    reason='both input sizes are arguments; there is no lazy form')
link_record(
    # initial_bias: the initializers of V1, V2 and b.
    'Bilinear:initializers',
    lambda: L.Bilinear(2, 3, 4, initialW=given(_BILINEAR_W),
                       initial_bias=(given(_BILINEAR_W[:, 0]), 0.5,
                                     given(B_4))),
    uniform((2, 2), (2, 3)),
    lambda link, e1, e2: F.bilinear(
        e1, e2, on(link, _BILINEAR_W), on(link, _BILINEAR_W[:, 0]),
        on(link, numpy.full((3, 4), 0.5)), on(link, B_4)),
    reason='both input sizes are arguments; there is no lazy form')
link_record(
    # axis defaults to 1, b starts at zero.
    'Bias', lambda: L.Bias(shape=(3,)), uniform((2, 3, 2)),
    lambda link, x: F.bias(x, zero_bias(link), 1),
    reason='the shape of b is an argument; there is no lazy form')
link_record(
    # Built without a shape: the bias is the second input.
    'Bias:two_inputs', lambda: L.Bias(axis=0), uniform((3, 2), (3,)),
    lambda link, x, y: F.bias(x, y, 0),
    reason='without parameters, nothing is left to a first call')
link_record(
    # W starts at one, the bias at zero.
    'Scale',
    lambda: L.Scale(axis=1, W_shape=(3,), bias_term=True, bias_shape=(3,)),
    uniform((2, 3, 2)),
    lambda link, x: F.bias(F.scale(x, link.xp.ones(3, x.dtype), 1),
                           zero_bias(link.bias), 1),
    reason='the shape of W is an argument; there is no lazy form')
def _scale_without_bias(link, x, y=None):
    """Scale's map of ``x`` along axis 1 by its W (or by ``y``),
    asserting it has no bias."""
    absent(getattr(link, 'bias', None), 'bias')
    return F.scale(x, link.W.array if y is None else y, 1)


link_record(
    # No bias by default; axis 1 by default.
    'Scale:no_bias_term', lambda: L.Scale(W_shape=(3,)), uniform((2, 3, 2)),
    _scale_without_bias,
    reason='the shape of W is an argument; there is no lazy form')
link_record(
    # Every option at its default: the scale is the second input (axis 1),
    # no bias.
    'Scale:defaults', lambda: L.Scale(), uniform((2, 3, 2), (3,)),
    _scale_without_bias,
    reason='without parameters, nothing is left to a first call')
link_record(
    # Built without W_shape: the scale is the second input; the bias
    # takes bias_shape.
    'Scale:two_inputs', lambda: L.Scale(axis=0, bias_term=True,
                                        bias_shape=(3,)),
    uniform((3, 2), (3,)),
    lambda link, x, y: F.bias(F.scale(x, y, 0), zero_bias(link.bias), 0),
    reason='the shape of the bias is an argument; there is no lazy form')
link_record(
    'Parameter',
    lambda: L.Parameter(
        numpy.linspace(-1, 1, 6).reshape(2, 3).astype(get_dtype())),
    lambda rng: (), lambda link: link.W.array,
    # The link returns its Parameter; a copy of it is what the finite
    # differences can see change (the Parameter is restored after each).
    call=lambda link: F.identity(link()),
    reason='the array is the argument; there is no lazy form')
_IDS = numpy.array([[0, 4, -1], [2, 2, 1]], numpy.int32)
link_record(
    'EmbedID', lambda: L.EmbedID(5, 3, ignore_label=-1),
    lambda rng: (_IDS,),
    lambda link, x: F.embed_id(x, link.W.array, ignore_label=-1),
    reason='the vocabulary size is an argument; there is no lazy form')
link_record(
    # No ignore_label by default: every id, 0 and the last included, is
    # embedded.
    'EmbedID:default', lambda: L.EmbedID(5, 3),
    lambda rng: (numpy.array([[0, 4, 3], [2, 2, 1]], numpy.int32),),
    lambda link, x: F.embed_id(x, link.W.array),
    reason='the vocabulary size is an argument; there is no lazy form')
link_record(
    # An ignore_label inside the vocabulary: its rows embed to zeros.
    'EmbedID:ignore_label_2',
    lambda: L.EmbedID(5, 3, initialW=given(W_5x3), ignore_label=2),
    lambda rng: (numpy.array([[0, 4, 2], [2, 3, 1]], numpy.int32),),
    lambda link, x: F.embed_id(x, on(link, W_5x3), ignore_label=2),
    reason='the vocabulary size is an argument; there is no lazy form')
def _standard_normal(link, name='W'):
    """``link``'s parameter ``name``, asserting that its values are drawn
    from a standard normal distribution (the mean and standard deviation
    of its (seeded) values within 0.1 of 0 and 1)."""
    values = backend.CpuDevice().send_array(
        getattr(link, name).array).astype(numpy.float64)
    assert abs(values.mean()) < 0.1 and abs(values.std() - 1) < 0.1, (
        f'{link!r}: {name} has mean {values.mean()} and standard deviation '
        f'{values.std()}; expected a standard normal draw')
    return getattr(link, name).array


link_record(
    # W drawn from N(0, 1) by default: 800 values.
    'EmbedID:default_initializer', lambda: L.EmbedID(40, 20),
    lambda rng: (numpy.array([0, 39, 7], numpy.int32),),
    lambda link, x: F.embed_id(x, _standard_normal(link)),
    reason='the vocabulary size is an argument; there is no lazy form')
link_record(
    'EmbedID:from_params',
    lambda: L.EmbedID.from_params(given(W_4x3), ignore_label=3),
    lambda rng: (numpy.array([[0, 3, 1], [2, 3, 3]], numpy.int32),),
    lambda link, x: F.embed_id(x, on(link, W_4x3), ignore_label=3),
    reason='the parameter is the argument; there is no lazy form')
link_record(
    # The plain map's bias starts at zero, the transform's at -1.
    'Highway', lambda: L.Highway(3), uniform((2, 3)),
    lambda link, x: F.linear_interpolate(
        F.sigmoid(F.linear(x, link.transform.W.array, on(link, [-1] * 3))),
        F.relu(F.linear(x, link.plain.W.array, zero_bias(link.plain))), x),
    reason='in_out_size is an argument; there is no lazy form')
link_record(
    'Highway:options',
    lambda: L.Highway(3, nobias=True, activate=F.tanh,
                      init_Wh=given(W_4x3[:3]), init_Wt=0.5),
    uniform((2, 3)),
    lambda link, x: F.linear_interpolate(
        F.sigmoid(F.linear(x, on(link, numpy.full((3, 3), 0.5)),
                           no_bias(link.transform))),
        F.tanh(F.linear(x, on(link, W_4x3[:3]), no_bias(link.plain))), x),
    reason='in_out_size is an argument; there is no lazy form')
link_record(
    'Highway:initial_biases', lambda: L.Highway(3, init_bh=0.5,
                                                init_bt=given(B_3)),
    uniform((2, 3)),
    lambda link, x: F.linear_interpolate(
        F.sigmoid(F.linear(x, link.transform.W.array, on(link, B_3))),
        F.relu(F.linear(x, link.plain.W.array, on(link, [0.5] * 3))), x),
    reason='in_out_size is an argument; there is no lazy form')
link_record(
    'SimplifiedDropconnect', lambda: L.SimplifiedDropconnect(3, 4),
    uniform((2, 3)),
    lambda link, x: F.simplified_dropconnect(
        x, link.W.array, link.b.array, 0.5, True,
        link.xp.asarray(DROPCONNECT_MASK)),
    call=lambda link, x: link(x, mask=link.xp.asarray(DROPCONNECT_MASK)),
    lazy=lambda: L.SimplifiedDropconnect(None, 4))
# A fixed mask makes the dropped weights the same on every call.
DROPCONNECT_MASK = (numpy.arange(24).reshape(2, 4, 3) % 3 != 0).astype(
    numpy.float32)

link_record(
    'Convolution2D', lambda: L.Convolution2D(2, 3, 2, pad=1),
    uniform((2, 2, 4, 3)),
    lambda link, x: F.convolution_2d(x, link.W.array, zero_bias(link),
                                     pad=1),
    lazy=lambda: L.Convolution2D(None, 3, 2, pad=1))
link_record(
    # Every geometry option at its default; lazy in the short form
    # Convolution2D(out_channels, ksize).
    'Convolution2D:defaults', lambda: L.Convolution2D(2, 3, 2),
    uniform((2, 2, 4, 3)),
    lambda link, x: F.convolution_2d(x, link.W.array, zero_bias(link)),
    lazy=lambda: L.Convolution2D(3, 2))
link_record(
    'Convolution2D:strided_dilated_grouped',
    lambda: L.Convolution2D(4, 2, 2, stride=2, pad=1, dilate=2, groups=2),
    uniform((1, 4, 5, 4)),
    lambda link, x: conv(x, link, stride=2, pad=1, dilate=2, groups=2),
    lazy=lambda: L.Convolution2D(None, 2, 2, stride=2, pad=1, dilate=2,
                                 groups=2))
link_record(
    # Pairs of geometry, the filter given as an array, no bias.
    'Convolution2D:initialW_nobias',
    lambda: L.Convolution2D(2, 3, 2, stride=(2, 1), pad=(1, 0), nobias=True,
                            initialW=given(W_CONV)),
    uniform((1, 2, 4, 3)),
    lambda link, x: F.convolution_2d(x, on(link, W_CONV), no_bias(link),
                                     stride=(2, 1), pad=(1, 0)),
    lazy=lambda: L.Convolution2D(3, 2, stride=(2, 1), pad=(1, 0),
                                 nobias=True, initialW=given(W_CONV)))
link_record(
    'Convolution2D:initial_bias',
    lambda: L.Convolution2D(2, 3, 1, initial_bias=given(B_3)),
    uniform((1, 2, 2, 3)),
    lambda link, x: F.convolution_2d(x, link.W.array, on(link, B_3)),
    lazy=lambda: L.Convolution2D(3, 1, initial_bias=given(B_3)))
link_record(
    # Channels and ksize read from W (in_channels = W.shape[1] * groups).
    'Convolution2D:from_params',
    lambda: L.Convolution2D.from_params(
        given(W_GROUPED), given(B_4), stride=2, pad=1, dilate=2, groups=2),
    uniform((1, 2, 5, 4)),
    lambda link, x: F.convolution_2d(
        x, on(link, W_GROUPED), on(link, B_4), stride=2, pad=1, dilate=2,
        groups=2),
    reason='the parameters are the arguments; there is no lazy form')
link_record(
    'Convolution2D:from_params_nobias',
    lambda: L.Convolution2D.from_params(given(W_CONV), nobias=True),
    uniform((1, 2, 3, 3)),
    lambda link, x: F.convolution_2d(x, on(link, W_CONV), no_bias(link)),
    reason='the parameters are the arguments; there is no lazy form')
link_record(
    # A transposed filter (in, out / groups, kh, kw): out_channels is
    # W.shape[1] * groups.
    'Deconvolution2D:from_params',
    lambda: L.Deconvolution2D.from_params(
        given(W_GROUPED), given(B_4[:2]), stride=2, pad=1, groups=2),
    uniform((1, 4, 2, 3)),
    lambda link, x: F.deconvolution_2d(
        x, on(link, W_GROUPED), on(link, B_4[:2]), stride=2, pad=1,
        groups=2),
    reason='the parameters are the arguments; there is no lazy form')
link_record(
    'Deconvolution2D:outsize',
    lambda: L.Deconvolution2D(2, 3, 2, stride=2, outsize=(5, 4)),
    uniform((1, 2, 2, 2)),
    lambda link, x: F.deconvolution_2d(x, link.W.array, zero_bias(link),
                                       stride=2, outsize=(5, 4)),
    lazy=lambda: L.Deconvolution2D(3, 2, stride=2, outsize=(5, 4)))
link_record(
    # ndim read from W.
    'ConvolutionND:from_params',
    lambda: L.ConvolutionND.from_params(given(W_4x3[:, :, None]),
                                        given(B_4)),
    uniform((2, 3, 3)),
    lambda link, x: F.convolution_nd(x, on(link, W_4x3[:, :, None]),
                                     on(link, B_4)),
    reason='the parameters are the arguments; there is no lazy form')
link_record(
    'Deconvolution2D', lambda: L.Deconvolution2D(2, 3, 2, stride=2, pad=1),
    uniform((2, 2, 3, 2)),
    lambda link, x: F.deconvolution_2d(x, link.W.array, link.b.array, 2,
                                       1),
    lazy=lambda: L.Deconvolution2D(None, 3, 2, stride=2, pad=1))


def _nd_records(kind, function, side, **options):
    """Records of the 1-d, 3-d and N-d (2-d) layers of ``kind``
    (``'Convolution'`` or ``'Deconvolution'``), on inputs of sides
    ``side``."""
    for name, ndim in ((f'{kind}1D', 1), (f'{kind}3D', 3), (f'{kind}ND', 2)):
        build = getattr(L, name)
        if name.endswith('ND'):
            build = functools.partial(build, 2)
        link_record(
            name, lambda build=build: build(2, 3, 2, **options),
            uniform((1, 2) + (side,) * ndim),
            lambda link, x: function(x, link.W.array, link.b.array,
                                     **options),
            lazy=lambda build=build: build(None, 3, 2, **options))


_nd_records('Convolution', F.convolution_nd, 3, stride=2)
_nd_records('Deconvolution', F.deconvolution_nd, 2, stride=2, pad=1)
link_record(
    'DilatedConvolution2D',
    lambda: L.DilatedConvolution2D(2, 3, 2, pad=1, dilate=2),
    uniform((1, 2, 4, 4)),
    lambda link, x: F.dilated_convolution_2d(
        x, link.W.array, link.b.array, 1, 1, 2),
    lazy=lambda: L.DilatedConvolution2D(None, 3, 2, pad=1, dilate=2))
link_record(
    'DepthwiseConvolution2D',
    lambda: L.DepthwiseConvolution2D(2, 2, 2, pad=1),
    uniform((2, 2, 3, 3)),
    lambda link, x: F.depthwise_convolution_2d(
        x, link.W.array, link.b.array, 1, 1),
    lazy=lambda: L.DepthwiseConvolution2D(None, 2, 2, pad=1))
link_record(
    'LocalConvolution2D',
    lambda: L.LocalConvolution2D(2, 3, in_size=(4, 3), ksize=2),
    uniform((2, 2, 4, 3)),
    lambda link, x: F.local_convolution_2d(x, link.W.array, link.b.array,
                                           1),
    lazy=lambda: L.LocalConvolution2D(None, 3, ksize=2))
link_record(
    'DeformableConvolution2D',
    # Offsets not zero: sampling at whole pixels is at the kinks of the
    # bilinear interpolation.
    lambda: L.DeformableConvolution2D(
        2, 3, 2, pad=1, offset_initialW=initializers.Normal(0.5),
        offset_initial_bias=0.25),
    uniform((1, 2, 3, 3)),
    lambda link, x: F.deformable_convolution_2d_sampler(
        x, conv(x, link.offset_conv, pad=1), link.deform_conv.W.array,
        link.deform_conv.b.array, pad=1),
    reason='in_channels is an argument of both inner convolutions; there '
           'is no lazy form')
link_record(
    'MLPConvolution2D', lambda: L.MLPConvolution2D(2, (3, 4), 1),
    uniform((2, 2, 3, 3)),
    lambda link, x: conv(F.relu(conv(x, link[0])), link[1]),
    lazy=lambda: L.MLPConvolution2D(None, (3, 4), 1))
link_record(
    # Biases not zero: a branch whose rectified inputs are all zero would
    # put its output at the rectifier's kink.
    'Inception', lambda: L.Inception(2, 1, 2, 1, 2, 1, 1, bias_init=0.3),
    uniform((1, 2, 3, 3)),
    lambda link, x: F.relu(F.concat((
        conv(x, link.conv1),
        conv(F.relu(conv(x, link.proj3)), link.conv3, pad=1),
        conv(F.relu(conv(x, link.proj5)), link.conv5, pad=2),
        conv(F.max_pooling_2d(x, 3, stride=1, pad=1), link.projp)),
        axis=1)),
    lazy=lambda: L.Inception(None, 1, 2, 1, 2, 1, 1, bias_init=0.3))


def _conv_bn_relu(x, link, name, stride=1):
    """A unit of InceptionBN: convolution, batch normalization, rectifier
    (the normalization in training: with the batch's statistics)."""
    convolution, normalization = link[name], link[name + 'n']
    y = conv(x, convolution, stride=stride,
             pad=convolution.W.shape[2] // 2)
    return F.relu(F.batch_normalization(
        y, normalization.gamma.array, normalization.beta.array,
        eps=normalization.eps))


link_record(
    'InceptionBN', lambda: L.InceptionBN(2, 1, 2, 1, 2, 1, 'avg', 1),
    uniform((3, 2, 3, 3)),
    lambda link, x: F.concat((
        _conv_bn_relu(x, link, 'conv1'),
        _conv_bn_relu(_conv_bn_relu(x, link, 'proj3'), link, 'conv3'),
        _conv_bn_relu(_conv_bn_relu(_conv_bn_relu(
            x, link, 'proj33'), link, 'conv33a'), link, 'conv33b'),
        _conv_bn_relu(F.average_pooling_2d(x, 3, stride=1, pad=1), link,
                      'poolp')), axis=1),
    reason='in_channels sizes the normalizations too; there is no lazy '
           'form')
