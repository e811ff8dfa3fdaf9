"""Records of the activation functions."""
import numpy
from hypothesis import strategies as st

from harness.record import FLOAT16
from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import large_floats
from harness.strategies import shapes
from kusari.array import configuration
from kusari.autograd import functions as F


def _sigmoid(x):
    return 0.5 * numpy.tanh(0.5 * x) + 0.5


def _with_option(name, values, **float_options):
    """x drawn with ``float_options``, and the keyword ``name`` from
    ``values`` or left out (the reference's default is the function's)."""
    return st.tuples(floats(**float_options),
                     st.sampled_from([*values, None])).map(
        lambda pair: sample(pair[0]) if pair[1] is None else
        sample(pair[0], **{name: pair[1]}))


record('relu', F.relu, reference=lambda x: numpy.maximum(x, 0),
       inputs=(floats(away_from=[0.0]),))
record('relu6', F.relu6, reference=lambda x: numpy.clip(x, 0, 6),
       inputs=(floats(low=-8.0, high=8.0, away_from=[0.0, 6.0]),))


@st.composite
def _clipped_relu_sample(draw):
    """z given or left to its default 20, with x reaching past it."""
    z = draw(st.sampled_from([0.5, 1.0, 20.0, None]))
    cap = 20.0 if z is None else z
    x = draw(floats(low=-1.25 * cap, high=1.25 * cap, away_from=[0.0, cap]))
    return sample(x) if z is None else sample(x, z=z)


record('clipped_relu', F.clipped_relu,
       reference=lambda x, z=20.0: numpy.clip(x, 0, z),
       inputs=_clipped_relu_sample())
record('leaky_relu', F.leaky_relu,
       reference=lambda x, slope=0.2: numpy.where(x > 0, x, slope * x),
       inputs=_with_option('slope', [0.2, 0.0, -0.5], away_from=[0.0]))
record('hard_sigmoid', F.hard_sigmoid,
       reference=lambda x: numpy.clip(0.2 * x + 0.5, 0, 1),
       inputs=(floats(low=-4.0, high=4.0, away_from=[-2.5, 2.5]),))
record('elu', F.elu,
       reference=lambda x, alpha=1.0: numpy.where(
           x > 0, x, alpha * numpy.expm1(numpy.minimum(x, 0))),
       inputs=_with_option('alpha', [1.0, 0.5, -0.5], away_from=[0.0]))


@st.composite
def _selu_sample(draw):
    """alpha and scale left to their defaults or given."""
    x = draw(floats(away_from=[0.0]))
    kwargs = draw(st.sampled_from([{}, {'alpha': 0.5, 'scale': 2.0},
                                   {'scale': 0.5}]))
    return sample(x, **kwargs)


record('selu', F.selu,
       reference=lambda x, alpha=1.6732632423543772,
       scale=1.0507009873554805: scale * numpy.where(
           x > 0, x, alpha * numpy.expm1(numpy.minimum(x, 0))),
       inputs=_selu_sample())
record('sigmoid', F.sigmoid, reference=_sigmoid,
       inputs=(floats(low=-4.0, high=4.0),))
record('tanh', F.tanh, reference=numpy.tanh,
       inputs=(floats(low=-3.0, high=3.0),))
record('softplus', F.softplus,
       reference=lambda x, beta=1.0: numpy.logaddexp(0, beta * x) / beta,
       inputs=_with_option('beta', [1.0, 2.0, 0.5, -1.0]))

# Magnitudes 10 to 30, where exp(x) overflows float16 (and exp(-x)
# underflows): a formula that computes it fails there.
record('sigmoid:large', F.sigmoid, reference=_sigmoid,
       inputs=(large_floats(),))
record('tanh:large', F.tanh, reference=numpy.tanh, inputs=(large_floats(),))


def _softplus_reference(x, beta=1.0):
    return numpy.logaddexp(0, beta * x) / beta


@st.composite
def _large_softplus_sample(draw):
    x = draw(large_floats())
    beta = draw(st.sampled_from([1.0, 2.0, -1.0, None]))
    return sample(x) if beta is None else sample(x, beta=beta)


record('softplus:large', F.softplus, reference=_softplus_reference,
       inputs=_large_softplus_sample())


def _rrelu_test_mode(x, **bounds):
    with configuration.using_config('train', False):
        return F.rrelu(x, **bounds)


@st.composite
def _rrelu_bounds_sample(draw):
    """In test mode the slope is (l + u) / 2: the bounds left to their
    defaults or given."""
    x = draw(floats(away_from=[0.0]))
    return sample(x, **draw(st.sampled_from(
        [{}, {'l': 0.25, 'u': 0.5}, {'l': 0.0, 'u': 0.125}])))


def _rrelu_given_slopes(x, r):
    return F.rrelu(x, r=x.xp.asarray(r, dtype=x.dtype))


@st.composite
def _rrelu_sample(draw):
    x = draw(floats(away_from=[0.0]))
    return sample(x, r=draw(floats(shape=x.shape, low=0.125, high=0.3)))


record('rrelu', _rrelu_test_mode,
       reference=lambda x, **bounds: numpy.where(
           x >= 0, x, x * (bounds.get('l', 1 / 8) + bounds.get('u', 1 / 3))
           / 2),
       inputs=_rrelu_bounds_sample())
record('rrelu:given_r', _rrelu_given_slopes,
       # r is cast to the dtype under test by the function call.
       reference=lambda x, r: numpy.where(
           x >= 0, x, x * r.astype(x.dtype)),
       inputs=_rrelu_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 2e-3}}})


def _axis_of(ndim):
    return st.integers(-ndim, ndim - 1)


@st.composite
def _axis_sample(draw, **float_options):
    """An input and an axis, or (half of the inputs of two axes or more)
    none: the default, axis 1."""
    x = draw(floats(shape=shapes(min_dims=1), **float_options))
    if x.ndim >= 2 and draw(st.booleans()):
        return sample(x)
    return sample(x, axis=draw(_axis_of(x.ndim)))


def _softmax_reference(x, axis=1):
    if x.size == 0:
        return x.copy()
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax_reference(x, axis=1):
    if x.size == 0:
        return x.copy()
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - numpy.log(numpy.exp(shifted).sum(axis=axis,
                                                      keepdims=True))


# A float16 softmax sums up to five rounded exponentials.
_LOOSE_FLOAT16 = {FLOAT16: {'forward': {'atol': 3e-3}}}
record('softmax', F.softmax, reference=_softmax_reference,
       inputs=_axis_sample(), tolerances=_LOOSE_FLOAT16)
record('log_softmax', F.log_softmax, reference=_log_softmax_reference,
       inputs=_axis_sample(), tolerances=_LOOSE_FLOAT16)



@st.composite
def _large_axis_sample(draw):
    x = draw(large_floats(shape=shapes(min_dims=1)))
    return sample(x, axis=draw(_axis_of(x.ndim)))


# Values of magnitude 10 to 30: the exponentials overflow float16 unless
# the maximum is subtracted first. float16 holds such values to 1.6e-2,
# and its softmax outputs round to 1e-3 of their value.
_LARGE_FLOAT16 = {FLOAT16: {'forward': {'atol': 3e-3, 'rtol': 2e-2}}}
record('softmax:large', F.softmax, reference=_softmax_reference,
       inputs=_large_axis_sample(), tolerances=_LARGE_FLOAT16)
record('log_softmax:large', F.log_softmax,
       reference=_log_softmax_reference, inputs=_large_axis_sample(),
       tolerances=_LARGE_FLOAT16)
record('crelu', F.crelu,
       reference=lambda x, axis=1: numpy.concatenate(
           (numpy.maximum(x, 0), numpy.maximum(-x, 0)), axis),
       inputs=_axis_sample(away_from=[0.0]))


@st.composite
def _maxout_sample(draw):
    """Distinct values 0.1 apart, so no maximum is tied or overtaken by a
    finite-difference step."""
    shape = list(draw(shapes(min_dims=1, max_dims=3, max_side=4)))
    axis = draw(_axis_of(len(shape)))
    pool_size = draw(st.integers(1, 3))
    shape[axis] *= pool_size
    size = int(numpy.prod(shape))
    order = draw(st.permutations(range(size))) if size else []
    x = (numpy.array(order, dtype=numpy.float64) - size / 2) * 0.1
    if axis == 1 and draw(st.booleans()):
        return sample(x.reshape(shape), pool_size=pool_size)  # the default
    return sample(x.reshape(shape), pool_size=pool_size, axis=axis)


def _maxout_reference(x, pool_size, axis=1):
    axis %= x.ndim
    shape = (x.shape[:axis] + (x.shape[axis] // pool_size, pool_size) +
             x.shape[axis + 1:])
    return x.reshape(shape).max(axis=axis + 1)


record('maxout', F.maxout, reference=_maxout_reference,
       inputs=_maxout_sample())


@st.composite
def _channel_parameter_sample(draw, **float_options):
    x = draw(floats(shape=shapes(min_dims=1), **float_options))
    p_ndim = draw(st.integers(0, x.ndim - 1))
    return x, draw(floats(shape=x.shape[1:1 + p_ndim]))


def _extended(p, x):
    return p.reshape((1,) + p.shape + (1,) * (x.ndim - 1 - p.ndim))


record('prelu', F.prelu,
       reference=lambda x, W: numpy.where(x >= 0, x, _extended(W, x) * x),
       inputs=_channel_parameter_sample(away_from=[0.0]))
record('swish', F.swish,
       reference=lambda x, beta: x * _sigmoid(_extended(beta, x) * x),
       inputs=_channel_parameter_sample())


def _cell_reference(cells, gates_a, gates_i, gate_o, gates_f):
    c = sum(numpy.tanh(a) * _sigmoid(i) for a, i in zip(gates_a, gates_i))
    c = c + sum(_sigmoid(f) * c_k for f, c_k in zip(gates_f, cells))
    return c, _sigmoid(gate_o) * numpy.tanh(c)


def _interleaved(x, n_gates):
    grouped = x.reshape((x.shape[0], x.shape[1] // n_gates, n_gates) +
                        x.shape[2:])
    return [grouped[:, :, g] for g in range(n_gates)]


def _lstm_reference(c_prev, x):
    a, i, f, o = _interleaved(x, 4)
    c, h = _cell_reference([c_prev[:len(x)]], [a], [i], o, [f])
    return numpy.concatenate((c, c_prev[len(x):])), h


def _slstm_reference(c_prev1, c_prev2, x1, x2):
    a1, i1, f1, o1 = _interleaved(x1, 4)
    a2, i2, f2, o2 = _interleaved(x2, 4)
    return _cell_reference([c_prev1, c_prev2], [a1, a2], [i1, i2], o1 + o2,
                           [f1, f2])


def _tree_lstm_reference(*inputs):
    cells, x = inputs[:-1], inputs[-1]
    n_gates = 3 + len(cells)
    grouped = x.reshape((x.shape[0], n_gates, x.shape[1] // n_gates) +
                        x.shape[2:])
    a, i, o, *fs = [grouped[:, g] for g in range(n_gates)]
    return _cell_reference(cells, [a], [i], o, fs)


@st.composite
def _cell_shapes(draw):
    """(batch, units, *rest) of a cell state, 2 to 3 axes."""
    return draw(shapes(min_dims=2, max_dims=3, max_side=3))


def _gates_shape(cell_shape, n_gates):
    return cell_shape[:1] + (cell_shape[1] * n_gates,) + cell_shape[2:]


@st.composite
def _lstm_sample(draw):
    cell_shape = draw(_cell_shapes())
    batch = draw(st.integers(0, cell_shape[0]))
    x_shape = (batch,) + _gates_shape(cell_shape, 4)[1:]
    return draw(floats(shape=cell_shape)), draw(floats(shape=x_shape))


@st.composite
def _slstm_sample(draw):
    cell_shape = draw(_cell_shapes())
    x_shape = _gates_shape(cell_shape, 4)
    return tuple(draw(floats(shape=shape)) for shape in
                 (cell_shape, cell_shape, x_shape, x_shape))


@st.composite
def _tree_lstm_sample(draw):
    cell_shape = draw(_cell_shapes())
    n = draw(st.integers(1, 3))
    cells = [draw(floats(shape=cell_shape)) for _ in range(n)]
    return tuple(cells) + (draw(floats(shape=_gates_shape(cell_shape,
                                                          3 + n))),)


record('lstm', F.lstm, reference=_lstm_reference, inputs=_lstm_sample())
record('slstm', F.slstm, reference=_slstm_reference, inputs=_slstm_sample())
record('tree_lstm', F.tree_lstm, reference=_tree_lstm_reference,
       inputs=_tree_lstm_sample())
