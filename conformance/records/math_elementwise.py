"""Records of the elementwise mathematical functions: trigonometric,
hyperbolic, exponential and logarithmic, special functions, clipping,
selection and interpolation."""
import numpy
import scipy.special
from hypothesis import strategies as st

from harness.record import FLOAT64
from harness.record import no_spec
from harness.record import record
from harness.record import sample
from harness.strategies import broadcast_floats
from harness.strategies import broadcastable_shapes
from harness.strategies import floats
from harness.strategies import shapes
from kusari.autograd import functions as F


def _unary(name, reference, low=-2.0, high=2.0, **options):
    """The record of a one-input function, on values in [low, high]."""
    record(name, getattr(F, name), reference=reference,
           inputs=(floats(low=low, high=high),), **options)


_unary('sin', numpy.sin, -3.0, 3.0)
_unary('cos', numpy.cos, -3.0, 3.0)
_unary('tan', numpy.tan, -1.2, 1.2)
_unary('arcsin', numpy.arcsin, -0.9, 0.9)
_unary('arccos', numpy.arccos, -0.9, 0.9)
_unary('arctan', numpy.arctan, -3.0, 3.0)
_unary('arctanh', numpy.arctanh, -0.9, 0.9)
_unary('sinh', numpy.sinh)
_unary('cosh', numpy.cosh)
_unary('expm1', numpy.expm1)
_unary('log1p', numpy.log1p, -0.8, 2.0)
_unary('log2', numpy.log2, 0.2, 4.0)
_unary('log10', numpy.log10, 0.2, 4.0)
_unary('sqrt', numpy.sqrt, 0.2, 4.0)
_unary('rsqrt', lambda x: 1 / numpy.sqrt(x), 0.3, 4.0)
_unary('square', numpy.square)
_unary('erf', scipy.special.erf)
_unary('erfc', scipy.special.erfc)
_unary('erfinv', scipy.special.erfinv, -0.9, 0.9)
_unary('erfcinv', scipy.special.erfcinv, 0.1, 1.9)
_unary('erfcx', scipy.special.erfcx, -1.5, 3.0)
_unary('ndtr', scipy.special.ndtr, -3.0, 3.0)
# Steep near 0 and 1: at x = 0.05 the central difference's truncation,
# f'''/f' eps^2 / 6 = 602 eps^2 / 6, is 1.0e-6 of the gradient at the
# default float64 step (1e-4), all of float64's rtol; 1e-5 leaves 1e-8.
_unary('ndtri', scipy.special.ndtri, 0.05, 0.95, eps={FLOAT64: 1e-5})
_unary('log_ndtr', scipy.special.log_ndtr, -6.0, 4.0)
_unary('digamma', scipy.special.digamma, 0.5, 4.0)
_unary('lgamma', scipy.special.gammaln, 0.5, 4.0)


@st.composite
def _polygamma_sample(draw):
    x = draw(floats(low=1.0, high=4.0))
    n_shape = draw(broadcastable_shapes(x.shape))
    n = draw(st.integers(0, 2).map(
        lambda order: numpy.full(n_shape, order, dtype=numpy.int64)))
    return sample(n, x)


record('polygamma', F.polygamma, reference=scipy.special.polygamma,
       inputs=_polygamma_sample(), no_grads=(True, False))


@st.composite
def _zeta_sample(draw):
    q = draw(floats(low=0.5, high=3.0))
    x_shape = draw(broadcastable_shapes(q.shape))
    x = numpy.full(x_shape, draw(st.sampled_from([1.5, 2.0, 3.0, 4.5])))
    return sample(x, q)


record('zeta', F.zeta, reference=scipy.special.zeta, inputs=_zeta_sample(),
       no_grads=(True, False))

# x1 away from 0 keeps the pair off the origin and off the branch cut of
# the angle (x1 = 0, x2 < 0).
record('arctan2', F.arctan2, reference=numpy.arctan2,
       inputs=broadcast_floats({'away_from': [0.0], 'margin': 0.3}, {}))


@st.composite
def _fmod_sample(draw):
    """x = quotient * divisor with the quotient away from integers, where
    fmod jumps."""
    quotient = draw(floats(low=-2.9, high=2.9,
                           away_from=[-2.0, -1.0, 0.0, 1.0, 2.0],
                           margin=0.15))
    divisor = draw(floats(shape=broadcastable_shapes(quotient.shape),
                          low=0.5, high=2.0))
    divisor = numpy.where(draw(st.booleans()), -divisor, divisor)
    return sample(quotient * divisor, divisor)


record('fmod', F.fmod, reference=numpy.fmod, inputs=_fmod_sample())


@st.composite
def _selection_sample(draw):
    """Two operands at least 0.2 apart (the choice is a kink); either
    may be the broadcast one."""
    difference = draw(floats(away_from=[0.0], margin=0.2))
    base = draw(floats(shape=broadcastable_shapes(difference.shape)))
    pair = (base + difference, base)
    return sample(*(pair[::-1] if draw(st.booleans()) else pair))


record('maximum', F.maximum, reference=numpy.maximum,
       inputs=_selection_sample())
record('minimum', F.minimum, reference=numpy.minimum,
       inputs=_selection_sample())


@st.composite
def _clip_sample(draw):
    x_min, x_max = draw(st.sampled_from(
        [(-1.0, 1.0), (None, 0.5), (-0.5, None), (0.25, 1.5)]))
    bounds = [b for b in (x_min, x_max) if b is not None]
    x = draw(floats(away_from=bounds, margin=0.1))
    return sample(x, x_min=x_min, x_max=x_max)


record('clip', F.clip,
       reference=lambda x, x_min, x_max: numpy.clip(x, x_min, x_max),
       inputs=_clip_sample())


@st.composite
def _same_shape_floats(draw, n, first_low=-2.0, first_high=2.0):
    shape = draw(shapes())
    first = draw(floats(shape=shape, low=first_low, high=first_high))
    return (first,) + tuple(draw(floats(shape=shape)) for _ in range(n - 1))


record('squared_difference', F.squared_difference,
       reference=lambda x1, x2: (x1 - x2) ** 2,
       inputs=_same_shape_floats(2))
record('linear_interpolate', F.linear_interpolate,
       reference=lambda p, x, y: p * x + (1 - p) * y,
       inputs=_same_shape_floats(3, 0.0, 1.0))


@st.composite
def _axis_operand_sample(draw):
    """x, and y covering the axes axis .. axis + y.ndim - 1 of x (some of
    them as length-one axes)."""
    x = draw(floats(shape=shapes(max_dims=3)))
    axis = draw(st.integers(0, x.ndim))
    stop = draw(st.integers(axis, x.ndim))
    y_shape = tuple(1 if draw(st.booleans()) else side
                    for side in x.shape[axis:stop])
    return sample(x, draw(floats(shape=y_shape)), axis=axis)


def _along_axis(y, x_ndim, axis):
    return y.reshape((1,) * axis + y.shape + (1,) * (
        x_ndim - axis - y.ndim))


record('bias', F.bias,
       reference=lambda x, y, axis: x + _along_axis(y, x.ndim, axis),
       inputs=_axis_operand_sample())
record('scale', F.scale,
       reference=lambda x, y, axis: x * _along_axis(y, x.ndim, axis),
       inputs=_axis_operand_sample())

for _name in ('ceil', 'floor', 'fix', 'sign'):
    no_spec(_name, 'piecewise constant: as in Chainer it records no graph '
                   'and has no gradient; its values and dtypes are tested '
                   'in packages/autograd/tests/functions/'
                   'test_math_elementwise.py')
