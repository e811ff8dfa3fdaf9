"""Records of the noise injections.

Where the noise can be given (dropout's mask, gaussian's eps,
simplified_dropconnect's mask) the function is deterministic and checked
like any other. Where it is drawn (dropout, gaussian, zoneout,
gumbel_softmax), a record draws it from a fixed seed and takes the draw
away again, or uses a ratio at which nothing is left to chance; the
draws themselves are checked statistically in
packages/autograd/tests/functions/test_noise_*.py.
"""
import numpy
from hypothesis import strategies as st

from harness.record import FLOAT16
from harness.record import FLOAT64
from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import shapes
from kusari.array import configuration
from kusari.autograd import functions as F


def _on_device(x, array):
    """A host array as an array of x's device and dtype."""
    return x.xp.asarray(array, dtype=x.dtype)


@st.composite
def _dropout_sample(draw):
    x = draw(floats())
    ratio = draw(st.sampled_from([0.0, 0.25, 0.5]))
    keep = draw(floats(shape=x.shape, low=0.0, high=1.0)) >= ratio
    return sample(x, ratio=ratio, mask=keep / (1 - ratio))


def _dropout_given_mask(x, ratio, mask):
    return F.dropout(x, ratio=ratio, mask=_on_device(x, mask))


def _dropout_drawn(x, ratio):
    """Dropout drawing its mask, from a fixed seed so that every call of a
    check draws the same one; dropped elements are filled with their
    expected kept value, so the output is x / (1 - ratio) wherever the
    kept elements are scaled right."""
    x.xp.random.seed(0)
    y, mask = F.dropout(x, ratio, return_mask=True)
    return F.where(x.xp.asarray(mask != 0), y, x * (1 / (1 - ratio)))


def _with_ratio(ratios):
    return st.tuples(floats(), st.sampled_from(ratios)).map(
        lambda pair: sample(pair[0], ratio=pair[1]))


def _dropout_test_mode(x):
    with configuration.using_config('train', False):
        return F.dropout(x)


# The mask's 1 / (1 - ratio) is rounded to float16.
record('dropout', _dropout_given_mask,
       reference=lambda x, ratio, mask: x * mask, inputs=_dropout_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 2e-3}}})
record('dropout:test_mode', _dropout_test_mode, reference=lambda x: x,
       inputs=(floats(),))
# Draws the mask: its scale 1 / (1 - ratio) applied to the kept elements.
# Not float32, the dtype of test_static_graph.py: a replay skips the
# reseeding in Python, so it draws another mask.
record('dropout:drawn_mask', _dropout_drawn,
       reference=lambda x, ratio: x / (1 - ratio),
       inputs=_with_ratio([0.25, 0.5]), dtypes=(FLOAT16, FLOAT64),
       tolerances={FLOAT16: {'forward': {'atol': 2e-3}}})
# Nothing is dropped at ratio 0: the drawn mask keeps every element.
record('dropout:ratio_0', lambda x: F.dropout(x, 0.0),
       reference=lambda x: x, inputs=(floats(),))


@st.composite
def _gaussian_sample(draw):
    mean = draw(floats())
    ln_var = draw(floats(shape=mean.shape))
    return sample(mean, ln_var, eps=draw(floats(shape=mean.shape)))


def _gaussian_given_eps(mean, ln_var, eps):
    return F.gaussian(mean, ln_var, eps=_on_device(mean, eps))


@st.composite
def _same_shape_pair(draw):
    first = draw(floats())
    return first, draw(floats(shape=first.shape))


def _gaussian_drawn(mean, ln_var):
    """Gaussian drawing its eps, from a fixed seed so that every call of a
    check draws the same; the draw's part taken away again with the eps it
    returns, so the output is the mean."""
    mean.xp.random.seed(0)
    y, eps = F.gaussian(mean, ln_var, return_eps=True)
    return y - F.exp(ln_var / 2) * eps


# Not float32, the dtype of test_static_graph.py: a replay skips the
# reseeding in Python, so it draws another eps. A float16 y rounds a
# term of up to about 8.
record('gaussian:drawn_eps', _gaussian_drawn,
       reference=lambda mean, ln_var: mean,
       inputs=_same_shape_pair(), dtypes=(FLOAT16, FLOAT64),
       tolerances={FLOAT16: {'forward': {'atol': 2e-2},
                             'backward': {'atol': 5e-2}}})
record('gaussian', _gaussian_given_eps,
       reference=lambda mean, ln_var, eps: mean + numpy.exp(
           ln_var / 2) * eps.astype(mean.dtype),
       inputs=_gaussian_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 5e-3}}})


@st.composite
def _dropconnect_arrays(draw):
    """x, W and (for half of them) b."""
    x = draw(floats(shape=shapes(2, 3, max_side=3)))
    in_size = int(numpy.prod(x.shape[1:]))
    out_size = draw(shapes(1, 1, max_side=4))[0]
    arrays = (x, draw(floats(shape=(out_size, in_size))))
    if draw(st.booleans()):
        arrays += (draw(floats(shape=(out_size,))),)
    return arrays


@st.composite
def _dropconnect_sample(draw):
    arrays = draw(_dropconnect_arrays())
    x, W = arrays[:2]
    batchwise = draw(st.booleans())
    mask_shape = ((x.shape[0],) if batchwise else ()) + W.shape
    mask = draw(floats(shape=mask_shape, low=0.0, high=1.0)) >= 0.5
    ratio = draw(st.sampled_from([0.0, 0.5]))
    train = draw(st.booleans())
    return sample(*arrays, ratio=ratio, train=train, mask=mask,
                  use_batchwise_mask=batchwise)


@st.composite
def _dropconnect_unmasked(draw):
    """x, W, maybe b, and use_batchwise_mask, or (half of them) its
    default."""
    arrays = draw(_dropconnect_arrays())
    if draw(st.booleans()):
        return sample(*arrays)
    return sample(*arrays, use_batchwise_mask=draw(st.booleans()))


def _dropconnect_given_mask(x, W, b=None, *, mask, **kwargs):
    return F.simplified_dropconnect(x, W, b, mask=_on_device(x, mask),
                                    **kwargs)


def _dropconnect_reference(x, W, b=None, *, ratio, train, mask,
                           use_batchwise_mask):
    scale = 1 / (1 - ratio) if train else 1.0
    rows = x.reshape(len(x), -1) if x.size else x.reshape(
        len(x), W.shape[1])
    kept = W * mask * scale
    if use_batchwise_mask:
        y = numpy.einsum('ijk,ik->ij', kept, rows)
    else:
        y = rows @ kept.T
    return y if b is None else y + b


record('simplified_dropconnect', _dropconnect_given_mask,
       reference=_dropconnect_reference, inputs=_dropconnect_sample())
# The mask drawn (in training, the default) at ratio 0: draws in [0, 1)
# keep every weight, per sample or for the batch alike.
record('simplified_dropconnect:drawn_ratio_0',
       lambda *arrays, **options: F.simplified_dropconnect(
           *arrays, ratio=0.0, **options),
       reference=lambda x, W, b=None, **options: _dropconnect_reference(
           x, W, b, ratio=0.0, train=True, mask=1.0,
           use_batchwise_mask=False),
       inputs=_dropconnect_unmasked())


@st.composite
def _zoneout_states(draw):
    """A previous state h and a new state x that differ everywhere."""
    h = draw(floats())
    return h, h + draw(floats(shape=h.shape, low=0.5, high=1.0))


def _zoneout_drawn(h, x):
    """Zoneout at its default ratio, from a fixed seed; the state taken at
    each element, read back from y (h and x differ everywhere), is taken
    away again: the output is 0, and so are the gradients wherever
    backward sends each to the state forward took."""
    x.xp.random.seed(0)
    y = F.zoneout(h, x)
    return y - F.where(x.xp.asarray(y.array == x.array), x, h)


# ratio is the probability of keeping h: 0 takes x everywhere, 1 keeps h
# everywhere (the draws are in [0, 1)), with every gradient on that side.
record('zoneout:ratio_0', lambda h, x: F.zoneout(h, x, 0.0),
       reference=lambda h, x: x, inputs=_same_shape_pair())
record('zoneout:ratio_1', lambda h, x: F.zoneout(h, x, ratio=1.0),
       reference=lambda h, x: h, inputs=_same_shape_pair())
# Not float32, the dtype of test_static_graph.py: a replay skips the
# reseeding in Python, so it draws another mask.
record('zoneout:drawn', _zoneout_drawn,
       reference=lambda h, x: numpy.zeros_like(x), inputs=_zoneout_states(),
       dtypes=(FLOAT16, FLOAT64))


@st.composite
def _gumbel_softmax_sample(draw):
    """log_pi with an axis, or (half of the inputs of two axes or more) the
    default axis 1, and a temperature of at least 2, where float16 holds
    the smallest outputs (down to exp(-7) or so) in normal numbers."""
    log_pi = draw(floats(shape=shapes(min_dims=1)))
    options = {'tau': draw(st.sampled_from([2.0, 4.0]))}
    if log_pi.ndim < 2 or draw(st.booleans()):
        options['axis'] = draw(st.integers(-log_pi.ndim, log_pi.ndim - 1))
    return sample(log_pi, **options)


def _gumbel_softmax_drawn(log_pi, **options):
    """Gumbel-softmax of log_pi and of zeros, each drawn from one fixed
    seed: the difference of their logarithms, (log_pi + g) / tau - (0 + g)
    / tau less the two normalizations, leaves log_pi / tau less one
    constant per slice along the axis, which the mean along it takes away
    too."""
    xp = log_pi.xp
    logs = []
    for logits in (log_pi, xp.zeros_like(log_pi.array)):
        xp.random.seed(0)
        logs.append(F.log(F.gumbel_softmax(logits, **options)))
    z = logs[0] - logs[1]
    if z.size == 0:
        return z
    mean = F.mean(z, axis=options.get('axis', 1), keepdims=True)
    return z - F.broadcast_to(mean, z.shape)


def _gumbel_softmax_reference(log_pi, tau=0.1, axis=1):
    if log_pi.size == 0:
        return log_pi.copy()
    return (log_pi - log_pi.mean(axis=axis, keepdims=True)) / tau


# Not float32, the dtype of test_static_graph.py: a replay skips the
# reseeding in Python, so it draws other noise. In float16 the logarithms
# of outputs rounded to 1e-3 of their value differ by up to 2e-3 or so.
record('gumbel_softmax', _gumbel_softmax_drawn,
       reference=_gumbel_softmax_reference, inputs=_gumbel_softmax_sample(),
       dtypes=(FLOAT16, FLOAT64),
       tolerances={FLOAT16: {'forward': {'atol': 5e-3}}})
# The default temperature 0.1 spreads the outputs over more than float16's
# range (their logarithms are checked), so float64 only.
record('gumbel_softmax:defaults', _gumbel_softmax_drawn,
       reference=_gumbel_softmax_reference,
       inputs=(floats(shape=shapes(min_dims=2)),), dtypes=(FLOAT64,))
