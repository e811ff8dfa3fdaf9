"""Records of the noise injections.

Where the noise can be given (dropout's mask, gaussian's eps,
simplified_dropconnect's mask) the function is deterministic and checked
like any other; the draws themselves are checked statistically in
packages/autograd/tests/functions/test_noise_*.py.
"""
import numpy
from hypothesis import strategies as st

from harness.record import FLOAT16
from harness.record import FLOAT64
from harness.record import no_spec
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
def _gaussian_pair(draw):
    mean = draw(floats())
    return mean, draw(floats(shape=mean.shape))


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
       inputs=_gaussian_pair(), dtypes=(FLOAT16, FLOAT64),
       tolerances={FLOAT16: {'forward': {'atol': 2e-2},
                             'backward': {'atol': 5e-2}}})
record('gaussian', _gaussian_given_eps,
       reference=lambda mean, ln_var, eps: mean + numpy.exp(
           ln_var / 2) * eps.astype(mean.dtype),
       inputs=_gaussian_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 5e-3}}})


@st.composite
def _dropconnect_sample(draw):
    batchwise = draw(st.booleans())
    x = draw(floats(shape=shapes(2, 3, max_side=3)))
    in_size = int(numpy.prod(x.shape[1:]))
    out_size = draw(shapes(1, 1, max_side=4))[0]
    W = draw(floats(shape=(out_size, in_size)))
    mask_shape = ((x.shape[0],) if batchwise else ()) + W.shape
    mask = draw(floats(shape=mask_shape, low=0.0, high=1.0)) >= 0.5
    ratio = draw(st.sampled_from([0.0, 0.5]))
    train = draw(st.booleans())
    arrays = (x, W)
    if draw(st.booleans()):
        arrays += (draw(floats(shape=(out_size,))),)
    return sample(*arrays, ratio=ratio, train=train, mask=mask,
                  use_batchwise_mask=batchwise)


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

no_spec('zoneout', 'random by design and takes no mask: its draws are '
        'checked statistically with a fixed seed in '
        'tests/functions/test_noise_random.py')
no_spec('gumbel_softmax', 'random by design and takes no noise argument: '
        'its draws are checked statistically with a fixed seed in '
        'tests/functions/test_noise_random.py')
