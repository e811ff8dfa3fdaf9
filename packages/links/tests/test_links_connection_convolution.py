"""The convolution and deconvolution layers: forward and gradients against
NumPy references, the short and lazy forms, from_params, bad input."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd.utils import type_check
from kusari.autograd import testing as autograd_testing
from kusari.autograd.functions.connection.convolution_2d import \
    Convolution2DFunction
from kusari.links import layers as L

import connection_reference as ref

BACKENDS = [{}, {'use_cuda': True}]


def _make(cls, ndim, in_channels, out_channels, ksize, **options):
    """``cls`` built with the ND classes' leading ndim where needed."""
    if cls in (L.ConvolutionND, L.DeconvolutionND):
        return cls(ndim, in_channels, out_channels, ksize, **options)
    return cls(in_channels, out_channels, ksize, **options)


CONVOLUTIONS = [
    {'cls': L.Convolution1D, 'ndim': 1},
    {'cls': L.Convolution2D, 'ndim': 2},
    {'cls': L.Convolution3D, 'ndim': 3},
    {'cls': L.ConvolutionND, 'ndim': 2},
    {'cls': L.Deconvolution1D, 'ndim': 1},
    {'cls': L.Deconvolution2D, 'ndim': 2},
    {'cls': L.Deconvolution3D, 'ndim': 3},
    {'cls': L.DeconvolutionND, 'ndim': 2},
]


@autograd_testing.parameterize(*autograd_testing.product_dict(
    CONVOLUTIONS,
    [{'options': {}, 'lazy': False, 'nobias': False},
     {'options': {'stride': 2, 'pad': 1}, 'lazy': True, 'nobias': False},
     {'options': {'dilate': 2, 'groups': 2}, 'lazy': False, 'nobias': True}],
))
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestConvolutionLayers(ref.ConnectionLinkTest):
    in_channels = 4
    out_channels = 2
    ksize = 2

    def before_test(self, test_name):
        super().before_test(test_name)
        self.param_names = ('W',) if self.nobias else ('W', 'b')

    @property
    def transposed(self):
        return self.cls.transposed

    def generate_params(self):
        groups = self.options.get('groups', 1)
        if self.transposed:
            w_shape = (self.in_channels, self.out_channels // groups)
        else:
            w_shape = (self.out_channels, self.in_channels // groups)
        return (ref.uniform(*w_shape + (self.ksize,) * self.ndim),
                ref.uniform(self.out_channels))

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        options = dict(self.options, nobias=self.nobias, initialW=initialW,
                       initial_bias=initial_bias)
        if self.lazy:
            # The short form: (out_channels, ksize).
            return _make(self.cls, self.ndim, self.out_channels, self.ksize,
                         None, **options)
        return _make(self.cls, self.ndim, self.in_channels,
                     self.out_channels, self.ksize, **options)

    def generate_inputs(self):
        return ref.uniform(2, self.in_channels, *(4,) * self.ndim),

    def forward_expected(self, link, inputs):
        x, = inputs
        b = None if self.nobias else link.b.array
        reference = ref.deconvolution if self.transposed else \
            ref.convolution
        return reference(x, link.W.array, b, **self.options).astype(
            numpy.float32),


@autograd_testing.parameterize(
    {'options': {}, 'dilate': 2},
    {'options': {'stride': 2, 'pad': 1}, 'dilate': (1, 2)},
)
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestDilatedConvolution2D(ref.ConnectionLinkTest):
    param_names = ('W', 'b')

    def generate_params(self):
        return ref.uniform(2, 3, 2, 2), ref.uniform(2)

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return L.DilatedConvolution2D(
            None, 2, 2, dilate=self.dilate, initialW=initialW,
            initial_bias=initial_bias, **self.options)

    def generate_inputs(self):
        return ref.uniform(2, 3, 5, 5),

    def forward_expected(self, link, inputs):
        x, = inputs
        return ref.convolution(x, link.W.array, link.b.array,
                               dilate=self.dilate, **self.options).astype(
            numpy.float32),


@autograd_testing.parameterize({'in_channels': 3}, {'in_channels': None})
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestDepthwiseConvolution2D(ref.ConnectionLinkTest):
    param_names = ('W', 'b')

    def generate_params(self):
        return ref.uniform(2, 3, 2, 2), ref.uniform(6)

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return L.DepthwiseConvolution2D(
            self.in_channels, 2, 2, stride=2, pad=1, initialW=initialW,
            initial_bias=initial_bias)

    def generate_inputs(self):
        return ref.uniform(2, 3, 4, 4),

    def forward_expected(self, link, inputs):
        x, = inputs
        multiplier, channels = link.W.shape[:2]
        # Output channel c * multiplier + m: channel c by W[m, c].
        W = link.W.array.transpose(1, 0, 2, 3).reshape(
            channels * multiplier, 1, 2, 2)
        return ref.convolution(x, W, link.b.array, 2, 1,
                               groups=channels).astype(numpy.float32),


@autograd_testing.parameterize(
    {'in_channels': 3, 'in_size': (5, 4)},
    {'in_channels': None, 'in_size': None},
)
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestLocalConvolution2D(ref.ConnectionLinkTest):
    param_names = ('W', 'b')

    def generate_params(self):
        # out_h = (5 - 2) // 2 + 1 = 2, out_w = (4 - 2) // 2 + 1 = 2
        return ref.uniform(2, 2, 2, 3, 2, 2), ref.uniform(2, 2, 2)

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return L.LocalConvolution2D(
            self.in_channels, 2, self.in_size, 2, stride=2,
            initialW=initialW, initial_bias=initial_bias)

    def generate_inputs(self):
        return ref.uniform(2, 3, 5, 4),

    def forward_expected(self, link, inputs):
        x, = inputs
        W = link.W.array.astype(numpy.float64)
        y = numpy.empty((2, 2, 2, 2))
        for i in range(2):
            for j in range(2):
                patch = x[:, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
                y[:, :, i, j] = numpy.einsum('nckl,ockl->no', patch,
                                             W[:, i, j])
        return (y + link.b.array).astype(numpy.float32),


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestDeformableConvolution2D(ref.ConnectionLinkTest):
    """With zero offsets it is the plain convolution (with the offset
    convolution's gradient reaching its parameters)."""
    param_names = ('W', 'b')

    def generate_params(self):
        return ref.uniform(2, 3, 2, 2), ref.uniform(2)

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return L.DeformableConvolution2D(
            None, 2, 2, pad=1, offset_initialW=0, offset_initial_bias=0,
            deform_initialW=initialW, deform_initial_bias=initial_bias)

    def forward(self, link, inputs, device):
        x, = inputs
        return link.deform_conv(x, link.offset_conv(x)),

    def generate_inputs(self):
        return ref.uniform(1, 3, 3, 3),

    def forward_expected(self, link, inputs):
        x, = inputs
        conv = link.deform_conv
        return ref.convolution(x, conv.W.array, conv.b.array,
                               pad=1).astype(numpy.float32),

    def test_backward(self, backend_config):
        self.param_names = ()
        super().test_backward(backend_config)


def test_deformable_convolution_offsets_shift_the_taps():
    link = L.DeformableConvolution2D(1, 1, 1, offset_initialW=0,
                                     offset_initial_bias=0, deform_initialW=1)
    x = numpy.arange(12, dtype=numpy.float32).reshape(1, 1, 3, 4)
    numpy.testing.assert_allclose(link(x).array, x)
    # A whole-pixel x offset of +1 reads the right neighbour.
    link.offset_conv.b.array[:] = [1, 0]
    shifted = link(x).array
    numpy.testing.assert_allclose(shifted[..., :3], x[..., 1:])
    assert {name for name, _ in link.namedparams()} == {
        '/offset_conv/W', '/offset_conv/b', '/deform_conv/W',
        '/deform_conv/b'}


@pytest.mark.parametrize('cls, ndim', [
    (L.Convolution2D, 2), (L.ConvolutionND, 3), (L.Deconvolution2D, 2),
    (L.DeconvolutionND, 1)])
def test_short_form_and_none_are_lazy(cls, ndim):
    for link in (_make(cls, ndim, 6, 3, None), _make(cls, ndim, None, 6, 3)):
        assert link.W.array is None and link.in_channels is None
        assert link.out_channels == 6 and link.ksize == (3,) * ndim
        link(numpy.ones((1, 4) + (5,) * ndim, numpy.float32))
        assert link.in_channels == 4
        expected = (4, 6) if cls.transposed else (6, 4)
        assert link.W.shape == expected + (3,) * ndim


@pytest.mark.parametrize('cls, ndim, shape', [
    (L.Convolution2D, 2, (3, 5, 5)), (L.Convolution1D, 1, (1, 3, 5, 5)),
    (L.Deconvolution3D, 3, (1, 2, 3)), (L.DilatedConvolution2D, 2, (5,)),
    (L.DepthwiseConvolution2D, 2, (1, 2, 3)),
    (L.LocalConvolution2D, 2, (1, 2, 3)),
])
def test_lazy_layer_rejects_the_wrong_ndim_before_initializing(
        cls, ndim, shape):
    link = cls(None, 2, 3) if cls is not L.LocalConvolution2D else \
        cls(None, 2, ksize=3)
    # Chainer's InvalidType (its function's type check), with the layer's
    # message.
    with pytest.raises(type_check.InvalidType) as info:
        link(numpy.ones(shape, numpy.float32))
    message = str(info.value)
    assert cls.__name__ in message and str(shape) in message
    assert f'expected {ndim + 2} axes' in message
    assert link.W.array is None


def test_groups_must_divide_the_channels():
    with pytest.raises(ValueError, match='5 input channels .* groups=2'):
        L.Convolution2D(5, 4, 3, groups=2)
    link = L.Convolution2D(4, 3, groups=2)
    with pytest.raises(ValueError, match='Convolution2D: 5 input channels'):
        link(numpy.ones((1, 5, 4, 4), numpy.float32))
    assert link.W.array is None
    with pytest.raises(ValueError, match='3 input channels'):
        L.Deconvolution2D(4, 3, 3, groups=2)


@pytest.mark.parametrize('kwargs, error, match', [
    ({'stride': 0}, ValueError, 'stride must be at least 1'),
    ({'pad': (1, 2, 3)}, TypeError, 'pad must be an int or a sequence of 2'),
    ({'dilate': 1.5}, TypeError, 'dilate'),
    ({'groups': 0}, ValueError, 'groups must be a positive int'),
])
def test_bad_geometry_is_rejected_at_construction(kwargs, error, match):
    with pytest.raises(error, match=f'Convolution2D: {match}'):
        L.Convolution2D(4, 4, 3, **kwargs)


def test_ksize_is_required():
    with pytest.raises(TypeError, match='Convolution2D: ksize must be'):
        L.Convolution2D(None, 4)
    with pytest.raises(TypeError, match='LocalConvolution2D: ksize must'):
        L.LocalConvolution2D(3, 2, (4, 4))


@pytest.mark.parametrize('cls, options', [
    (L.Convolution2D, {'stride': 2, 'groups': 2}),
    (L.Deconvolution2D,
     {'stride': 2, 'pad': 1, 'groups': 2, 'outsize': (8, 8)}),
    (L.ConvolutionND, {'cover_all': True}),
    (L.DeconvolutionND, {}),
    (L.Convolution3D, {}),
])
def test_from_params_rebuilds_the_layer(cls, options):
    ndim = 3 if cls is L.Convolution3D else 2
    link = _make(cls, ndim, 4, 6, 3, **options)
    copy = cls.from_params(link.W.array, link.b.array, **options)
    assert type(copy) is cls
    assert (copy.in_channels, copy.out_channels) == (4, 6)
    assert copy.W.array is not link.W.array
    x = ref.uniform(1, 4, *(4,) * ndim)
    numpy.testing.assert_array_equal(copy(x).array, link(x).array)


@pytest.mark.parametrize('cls', [L.Convolution2D, L.ConvolutionND,
                                 L.Deconvolution2D])
def test_from_params_takes_the_parameters_of_a_lazy_layer(cls):
    # Chainer's own idiom: shape a lazy layer by its in_channels with
    # _initialize_params, then copy its Parameters (not arrays).
    args = (2, 6, 3) if cls is L.ConvolutionND else (6, 3)
    link = cls(*args, groups=2)
    assert link.W.array is None
    link._initialize_params(4)
    assert link.in_channels == 4
    copy = cls.from_params(link.W, link.b, groups=2)
    assert copy.W.shape == link.W.shape
    numpy.testing.assert_array_equal(copy.W.array, link.W.array)
    assert copy.W.array is not link.W.array


def test_printed_specs():
    assert str(L.Deconvolution2D(3, 2, 3, 2, outsize=(5, 5))) == (
        'Deconvolution2D(in_channels=3, out_channels=2, ksize=(3, 3), '
        'stride=(2, 2), pad=(0, 0), nobias=False, dilate=(1, 1), groups=1, '
        'outsize=(5, 5))')


def test_call_adds_only_the_convolution_node():
    link = L.Convolution2D(3, 2, 3)
    x = Variable(ref.uniform(1, 3, 4, 4))
    node = link(x).creator
    assert isinstance(node, Convolution2DFunction)
    assert node.inputs == (x.node, link.W.node, link.b.node)


def test_deformable_convolution_default_weight_is_zero():
    # Chainer 7.8.1 starts the sampling convolution at zero and the
    # offset convolution random (LeCun normal).
    link = L.DeformableConvolution2D(2, 3, 2)
    numpy.testing.assert_array_equal(link.deform_conv.W.array, 0)
    assert link.deform_conv.W.shape == (3, 2, 2, 2)
    assert numpy.any(link.offset_conv.W.array != 0)
    lazy = L.DeformableConvolution2D(None, 3, 2, deform_initial_bias=2)
    # Both parameters of the sampling part wait for the first input.
    assert lazy.deform_conv.b.array is None
    lazy(numpy.ones((1, 2, 3, 3), numpy.float32))
    numpy.testing.assert_array_equal(lazy.deform_conv.W.array, 0)
    numpy.testing.assert_array_equal(lazy.deform_conv.b.array, [2, 2, 2])
