"""Records of arithmetic, matrix products, sums, exp and log."""
import functools
import operator

import numpy
from hypothesis import strategies as st

from harness.record import FLOAT16
from harness.record import record
from harness.record import sample
from harness.strategies import broadcast_floats
from harness.strategies import broadcastable_shapes
from harness.strategies import floats
from harness.strategies import mutually_broadcastable
from harness.strategies import shapes
from harness.strategies import some_broadcast_floats
from kusari.autograd import functions as F

# A float16 sum of up to 625 values in [-2, 2] rounds at every partial sum.
_LOOSE_FLOAT16_SUM = {FLOAT16: {'forward': {'atol': 5e-2}}}


record('add', F.add, reference=lambda *xs: functools.reduce(numpy.add, xs),
       inputs=some_broadcast_floats(1, 3))
record('sub', lambda a, b: a - b, reference=numpy.subtract,
       inputs=broadcast_floats({}, {}))
record('mul', lambda a, b: a * b, reference=numpy.multiply,
       inputs=broadcast_floats({}, {}))
record('div', lambda a, b: a / b, reference=numpy.divide,
       inputs=broadcast_floats({}, {'away_from': [0.0], 'margin': 0.5}))
record('neg', lambda x: -x, reference=numpy.negative, inputs=(floats(),))
record('absolute', F.absolute, reference=numpy.absolute,
       inputs=(floats(away_from=[0.0]),))

# Positive bases, in [0.5, 2]: x ** y and its derivatives stay far from
# overflow in float16.
record('pow', lambda a, b: a ** b, reference=numpy.power,
       inputs=broadcast_floats({'low': 0.5}, {}))


@st.composite
def _pow_var_const(draw):
    x = draw(floats(low=0.5))
    return sample(x, exponent=draw(st.sampled_from([-1.5, -1, 0.5, 2, 3])))


record('pow:var_const', lambda x, exponent: x ** exponent,
       reference=lambda x, exponent: numpy.power(x, exponent),
       inputs=_pow_var_const())


@st.composite
def _pow_const_var(draw):
    x = draw(floats())
    return sample(x, base=draw(st.sampled_from([0.5, 2.0, 3.5])))


record('pow:const_var', lambda x, base: base ** x,
       reference=lambda x, base: numpy.power(base, x),
       inputs=_pow_const_var())


@st.composite
def _constant_operand(draw):
    """x and the other operand of its operator: a Python scalar, or an
    array (of float32 or float64, cast to x's dtype) that broadcasts to
    x's shape; both kept from 0, so that either may divide."""
    x = draw(floats(away_from=[0.0], margin=0.5))
    constant = draw(st.one_of(
        st.sampled_from([-1.5, 0.5, 2, 3]),
        floats(shape=broadcastable_shapes(x.shape),
               dtype=st.sampled_from([numpy.float32, numpy.float64]),
               away_from=[0.0], margin=0.5)))
    return sample(x, constant=constant, reflected=draw(st.booleans()))


def _with_constant(op):
    """``x op constant``, or ``constant op x`` where reflected: the
    operators with a scalar (AddConstant, MulConstant, ...) or an array
    operand, which needs no gradient."""
    def call(x, constant, reflected):
        return op(constant, x) if reflected else op(x, constant)
    return call


for _name, _op in (('add', operator.add), ('sub', operator.sub),
                   ('mul', operator.mul), ('div', operator.truediv)):
    # The same call on arrays is its own reference.
    _call = _with_constant(_op)
    record(f'{_name}:constant', _call, reference=_call,
           inputs=_constant_operand())


def _transposed(array, trans):
    return array.swapaxes(-1, -2) if trans else array


def _matmul_reference(a, b, transa=False, transb=False):
    if a.ndim >= 2:
        a = _transposed(a, transa)
    if b.ndim >= 2:
        b = _transposed(b, transb)
    return numpy.matmul(a, b)


def _stored_shape(batch, rows, cols, trans):
    """The shape of a (rows, cols) operand stored transposed if asked."""
    return batch + ((cols, rows) if trans else (rows, cols))


@st.composite
def _matmul_sample(draw, batched):
    transa, transb = draw(st.booleans()), draw(st.booleans())
    m, k = draw(shapes(min_dims=2, max_dims=2))
    n = draw(st.integers(1, 5))
    batch_a, batch_b = draw(mutually_broadcastable(
        2, shapes(max_dims=2, max_side=3))) if batched else ((), ())
    a = draw(floats(shape=_stored_shape(batch_a, m, k, transa)))
    b = draw(floats(shape=_stored_shape(batch_b, k, n, transb)))
    return sample(a, b, transa=transa, transb=transb)


@st.composite
def _matmul_vector_sample(draw):
    """A 1-D operand on one side or both; the other side may be
    batched."""
    vector_a, vector_b = draw(st.sampled_from(
        [(True, False), (False, True), (True, True)]))
    trans = draw(st.booleans())
    k, = draw(shapes(min_dims=1, max_dims=1))
    side = draw(st.integers(1, 5))
    batch = draw(shapes(max_dims=1, max_side=3))
    if vector_a:
        a = draw(floats(shape=(k,)))
        b = draw(floats(shape=(k,) if vector_b else _stored_shape(
            batch, k, side, trans)))
        return sample(a, b, transb=trans)
    a = draw(floats(shape=_stored_shape(batch, side, k, trans)))
    b = draw(floats(shape=(k,)))
    return sample(a, b, transa=trans)


record('matmul', F.matmul, reference=_matmul_reference,
       inputs=_matmul_sample(batched=False))
record('matmul:batched', F.matmul, reference=_matmul_reference,
       inputs=_matmul_sample(batched=True))
record('matmul:vector', F.matmul, reference=_matmul_reference,
       inputs=_matmul_vector_sample())

record('identity', F.identity, reference=lambda *xs: xs,
       inputs=st.lists(floats(), min_size=1, max_size=3).map(tuple))


def _axes(ndim):
    """None, an axis, or a tuple of distinct axes (some negative)."""
    if ndim == 0:
        return st.sampled_from([None, ()])
    axis = st.integers(0, ndim - 1).flatmap(
        lambda a: st.sampled_from([a, a - ndim]))
    return st.one_of(
        st.none(), axis,
        st.lists(axis, max_size=ndim, unique_by=lambda a: a % ndim).map(
            tuple))


@st.composite
def _sum_sample(draw):
    x = draw(floats())
    return sample(x, axis=draw(_axes(x.ndim)), keepdims=draw(st.booleans()))


record('sum', F.sum, reference=numpy.sum, inputs=_sum_sample(),
       tolerances=_LOOSE_FLOAT16_SUM)


@st.composite
def _sum_to_sample(draw):
    x = draw(floats())
    return sample(x, shape=draw(broadcastable_shapes(x.shape)))


def _sum_to_reference(x, shape):
    lead = x.ndim - len(shape)
    stretched = tuple(lead + i for i, side in enumerate(shape)
                      if side == 1 and x.shape[lead + i] != 1)
    summed = x.sum(axis=tuple(range(lead)) + stretched, keepdims=True)
    return summed.reshape(shape)


record('sum_to', F.sum_to, reference=_sum_to_reference,
       inputs=_sum_to_sample(), tolerances=_LOOSE_FLOAT16_SUM)

record('exp', F.exp, reference=numpy.exp, inputs=(floats(),))
record('log', F.log, reference=numpy.log,
       inputs=(floats(positive=True, low=0.2),))
