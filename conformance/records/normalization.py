"""Records of the normalization functions.

Statistics taken over few values are ill-conditioned where those values
are nearly equal (the variance goes to eps), so every standardized input
is a drawn perturbation of a fixed spread of values along one axis the
statistics cover: the variance stays well above zero, however the drawn
part shrinks.
"""
import warnings

import numpy
from hypothesis import strategies as st

from harness.record import FLOAT16
from harness.record import FLOAT32
from harness.record import FLOAT64
from harness.record import no_spec  # noqa: F401
from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import shapes
from kusari.autograd import functions as F


def _batch_size(draw):
    """A batch size of 0 to 3, drawn as a shape so that the zero-size
    check can make it 0."""
    return draw(shapes(1, 1, max_side=3))[0]


def _spread(x, axis):
    """x scaled down and added to evenly spaced values along ``axis``, 1.5
    apart: any two values along it differ by at least 0.7."""
    if x.size == 0:
        return x
    ramp = (numpy.arange(x.shape[axis]) - (x.shape[axis] - 1) / 2) * 1.5
    shape = [1] * x.ndim
    shape[axis] = -1
    return ramp.reshape(shape) + 0.2 * x


def _standardize(x, axes, eps):
    if x.size == 0:
        return x.copy()
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps)


def _extended(p, shape, key_axes):
    return p.reshape([side if axis in key_axes else 1
                      for axis, side in enumerate(shape)])


@st.composite
def _batch_sample(draw, axis_option=False):
    """x of shape (N >= 2, *gamma.shape, ...), gamma and beta; with
    ``axis_option`` the statistics axes are drawn too (including 0)."""
    shape = (draw(st.integers(2, 4)),) + draw(shapes(1, 3, max_side=3))
    x = _spread(draw(floats(shape=shape)), 0)
    if axis_option:
        others = [a for a in range(1, len(shape)) if draw(st.booleans())]
        stat_axes = tuple([0] + others)
        key_axes = tuple(a for a in range(len(shape)) if a not in others
                         and a)
        param_shape = tuple(shape[a] for a in key_axes)
        kwargs = {'axis': stat_axes}
    else:
        gamma_ndim = draw(st.integers(0, len(shape) - 1))
        param_shape = shape[1:1 + gamma_ndim]
        kwargs = {}
    kwargs.update(_eps(draw))
    gamma = draw(floats(shape=param_shape))
    beta = draw(floats(shape=param_shape))
    return sample(x, gamma, beta, **kwargs)


def _eps(draw):
    """``{'eps': ...}`` of a value other than the default, or nothing."""
    eps = draw(st.sampled_from([None, 0.1]))
    return {} if eps is None else {'eps': eps}


def _batch_key_axes(x, gamma, axis):
    if axis is None:
        return tuple(range(1, 1 + gamma.ndim))
    return tuple(a for a in range(x.ndim) if a not in axis)


def _batch_normalization_reference(x, gamma, beta, axis=None, eps=2e-5):
    key_axes = _batch_key_axes(x, gamma, axis)
    stat_axes = tuple(a for a in range(x.ndim) if a not in key_axes)
    return (_extended(gamma, x.shape, key_axes) *
            _standardize(x, stat_axes, eps) +
            _extended(beta, x.shape, key_axes))


# Standardized values reach about 2; float16 keeps 3 significant digits.
_STANDARDIZED_FLOAT16 = {FLOAT16: {'forward': {'atol': 4e-3},
                                   'double_backward': {'atol': 1e-1,
                                                       'rtol': 1e-1}}}

record('batch_normalization', F.batch_normalization,
       reference=_batch_normalization_reference, inputs=_batch_sample(),
       tolerances=_STANDARDIZED_FLOAT16)
record('batch_normalization:axis', F.batch_normalization,
       reference=_batch_normalization_reference,
       inputs=_batch_sample(axis_option=True),
       tolerances=_STANDARDIZED_FLOAT16)


@st.composite
def _fixed_sample(draw):
    x, gamma, beta = draw(_batch_sample()).arrays
    mean = draw(floats(shape=gamma.shape))
    var = draw(floats(shape=gamma.shape, low=0.2, high=2.0))
    return x, gamma, beta, mean, var


def _fixed_reference(x, gamma, beta, mean, var, eps=2e-5):
    key_axes = tuple(range(1, 1 + gamma.ndim))
    return (_extended(gamma, x.shape, key_axes) *
            (x - _extended(mean, x.shape, key_axes)) /
            numpy.sqrt(_extended(var, x.shape, key_axes) + eps) +
            _extended(beta, x.shape, key_axes))


record('fixed_batch_normalization', F.fixed_batch_normalization,
       reference=_fixed_reference, inputs=_fixed_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 4e-3}}})


def _fixed_batch_renormalization(*inputs):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        return F.fixed_batch_renormalization(*inputs)


record('fixed_batch_renormalization', _fixed_batch_renormalization,
       reference=_fixed_reference, inputs=_fixed_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 4e-3}}})


@st.composite
def _renormalization_sample(draw):
    """Running statistics far from the batch's, so that r and d sit at
    their bounds: there the constants the gradient assumes are exact."""
    x, gamma, beta = draw(_batch_sample()).arrays
    return sample(x, gamma, beta, rmax=draw(st.sampled_from([1.0, 2.0])),
                  dmax=draw(st.sampled_from([0.0, 0.5])),
                  running_mean=numpy.full(gamma.shape, 30.0),
                  running_var=numpy.full(gamma.shape, 400.0))


def _batch_renormalization(x, gamma, beta, running_mean, running_var,
                           **kwargs):
    xp = x.xp
    return F.batch_renormalization(
        x, gamma, beta, running_mean=xp.asarray(running_mean, x.dtype),
        running_var=xp.asarray(running_var, x.dtype), **kwargs)


def _batch_renormalization_reference(x, gamma, beta, rmax, dmax,
                                     running_mean, running_var, eps=2e-5):
    if x.size == 0:
        return x.copy()
    key_axes = tuple(range(1, 1 + gamma.ndim))
    stat_axes = tuple(a for a in range(x.ndim) if a not in key_axes)
    sigma = numpy.sqrt(running_var + eps)
    std = numpy.sqrt(x.var(axis=stat_axes) + eps)
    r = numpy.clip(std.reshape(gamma.shape) / sigma, 1 / rmax, rmax)
    d = numpy.clip((x.mean(axis=stat_axes).reshape(gamma.shape) -
                    running_mean) / sigma, -dmax, dmax)
    x_hat = (_standardize(x, stat_axes, eps) *
             _extended(r, x.shape, key_axes) +
             _extended(d, x.shape, key_axes))
    return (_extended(gamma, x.shape, key_axes) * x_hat +
            _extended(beta, x.shape, key_axes))


record('batch_renormalization', _batch_renormalization,
       reference=_batch_renormalization_reference,
       inputs=_renormalization_sample(), tolerances=_STANDARDIZED_FLOAT16)


@st.composite
def _layer_sample(draw, units=st.integers(2, 5)):
    units = draw(units)
    x = _spread(draw(floats(shape=(_batch_size(draw), units))), 1)
    return sample(x, draw(floats(shape=(units,))),
                  draw(floats(shape=(units,))), **_eps(draw))


def _layer_normalization_reference(x, gamma, beta, eps=1e-5):
    return gamma * _standardize(x, (1,), eps) + beta


record('layer_normalization', F.layer_normalization,
       reference=_layer_normalization_reference,
       inputs=_layer_sample(), tolerances=_STANDARDIZED_FLOAT16)
# Statistics of a single value (x_hat is 0). Not float16: the second-order
# gradient holds 1 / sqrt(eps) ** 3, past float16's range (NaN; Chainer's
# first-order gradient is NaN there already).
record('layer_normalization:one_unit', F.layer_normalization,
       reference=_layer_normalization_reference,
       inputs=_layer_sample(units=st.just(1)), dtypes=(FLOAT32, FLOAT64))


@st.composite
def _group_sample(draw):
    groups = draw(st.integers(1, 3))
    channels = groups * draw(st.integers(2, 3))
    shape = (_batch_size(draw), channels) + draw(
        shapes(0, 2, min_side=1, max_side=3))
    x = draw(floats(shape=shape))
    # The spread runs along the channels of each group.
    if x.size:
        x = _spread(x.reshape((shape[0], groups, -1) + shape[2:]),
                    2).reshape(shape)
    gamma = draw(floats(shape=(channels,)))
    beta = draw(floats(shape=(channels,)))
    return sample(x, gamma, beta, groups=groups, **_eps(draw))


def _group_normalization(x, gamma, beta, groups, **kwargs):
    return F.group_normalization(x, groups, gamma, beta, **kwargs)


def _group_normalization_reference(x, gamma, beta, groups, eps=1e-5):
    n, channels = x.shape[:2]
    grouped = x.reshape(n, groups, int(numpy.prod(x.shape[1:])) // groups)
    y = _standardize(grouped, (2,), eps).reshape(x.shape)
    return (_extended(gamma, x.shape, (1,)) * y +
            _extended(beta, x.shape, (1,)))


record('group_normalization', _group_normalization,
       reference=_group_normalization_reference, inputs=_group_sample(),
       tolerances=_STANDARDIZED_FLOAT16)


@st.composite
def _lrn_sample(draw):
    x = draw(floats(shape=shapes(2, 4, max_side=4)))
    return sample(x, n=draw(st.sampled_from([1, 2, 3, 5])),
                  k=draw(st.sampled_from([1.0, 2.0])),
                  alpha=draw(st.sampled_from([1e-4, 0.5])),
                  beta=draw(st.sampled_from([0.75, 1.5])))


def _lrn_reference(x, n, k, alpha, beta):
    half = n // 2
    channels = x.shape[1]
    squares = x * x
    total = numpy.zeros_like(x)
    for c in range(channels):
        low, high = max(0, c - half), min(channels, c + half + 1)
        total[:, c] = squares[:, low:high].sum(axis=1)
    return x / (k + alpha * total) ** beta


record('local_response_normalization', F.local_response_normalization,
       reference=_lrn_reference, inputs=_lrn_sample())


@st.composite
def _normalize_sample(draw):
    # Elements at least 0.5 from 0: a norm near 0.1 curves so sharply that
    # finite differences miss the (correct) gradient by more than float64
    # bounds allow.
    x = draw(floats(shape=shapes(1, 4), away_from=[0.0], margin=0.5))
    axes = draw(st.lists(st.integers(0, x.ndim - 1), min_size=1,
                         unique=True))
    axis = axes[0] if len(axes) == 1 else tuple(axes)
    return sample(x, axis=axis, **_eps(draw))


def _normalize_reference(x, axis=1, eps=1e-5):
    return x / (numpy.sqrt((x * x).sum(axis=axis, keepdims=True)) + eps)


record('normalize', F.normalize, reference=_normalize_reference,
       inputs=_normalize_sample())
# The defaults: the vectors along axis 1.
record('normalize:defaults', F.normalize, reference=_normalize_reference,
       inputs=floats(shape=shapes(2, 3, max_side=4),
                     away_from=[0.0], margin=0.5))


def _whitening_base(n, channels, positions):
    """Values of shape (n, channels, positions) whose channels are
    uncorrelated with distinct variances: a well-conditioned covariance
    for every group."""
    m = n * positions
    samples = numpy.arange(m) + 0.5
    base = numpy.stack([(1 + 0.5 * c) * numpy.cos(
        numpy.pi * (c + 1) * samples / m) for c in range(channels)])
    return base.reshape(channels, n, positions).transpose(1, 0, 2)


@st.composite
def _decorrelated_sample(draw):
    groups = draw(st.integers(1, 2))
    per_group = draw(st.integers(1, 3))
    channels = groups * per_group
    n = draw(st.integers(2, 4))
    spatial = draw(st.sampled_from([(), (2,), (2, 2)]))
    positions = int(numpy.prod(spatial))
    if n * positions < per_group + 2:
        n = per_group + 2
    shape = (n, channels) + spatial
    base = numpy.concatenate(
        [_whitening_base(n, per_group, positions)] * groups, axis=1)
    x = base.reshape(shape) + 0.1 * draw(floats(shape=shape))
    return sample(x, groups=groups)


def _to_groups(x, groups):
    n, channels = x.shape[:2]
    positions = int(numpy.prod(x.shape[2:]))
    return x.reshape(n, groups, channels // groups, positions).transpose(
        1, 2, 0, 3).reshape(groups, channels // groups, n * positions)


def _from_groups(y, shape, groups):
    n, channels = shape[:2]
    positions = int(numpy.prod(shape[2:]))
    return y.reshape(groups, channels // groups, n, positions).transpose(
        2, 0, 1, 3).reshape(shape)


def _decorrelated_reference(x, groups, eps=2e-5):
    columns = _to_groups(x, groups)
    centered = columns - columns.mean(axis=2, keepdims=True)
    cov = centered @ centered.transpose(0, 2, 1) / centered.shape[2]
    cov += eps * numpy.eye(cov.shape[1])
    values, vectors = numpy.linalg.eigh(cov)
    projection = (vectors / numpy.sqrt(values)[:, None, :]) @ \
        vectors.transpose(0, 2, 1)
    return _from_groups(projection @ centered, x.shape, groups)


record('decorrelated_batch_normalization',
       F.decorrelated_batch_normalization,
       reference=_decorrelated_reference, inputs=_decorrelated_sample(),
       double_backprop=False, zero_size=False,
       tolerances={FLOAT16: {'forward': {'atol': 1e-2}}},
       reason='Chainer v7 has no second-order gradient for it; whitening '
              'an empty batch has no covariance')


@st.composite
def _fixed_decorrelated_sample(draw):
    groups = draw(st.integers(1, 2))
    per_group = draw(st.integers(1, 3))
    shape = (_batch_size(draw), groups * per_group) + draw(
        shapes(0, 2, min_side=1, max_side=3))
    return sample(draw(floats(shape=shape)),
                  draw(floats(shape=(groups, per_group))),
                  draw(floats(shape=(groups, per_group, per_group))),
                  groups=groups)


def _fixed_decorrelated_reference(x, mean, projection, groups):
    columns = _to_groups(x, groups) - mean[:, :, None]
    return _from_groups(projection @ columns, x.shape, groups)


record('fixed_decorrelated_batch_normalization',
       F.fixed_decorrelated_batch_normalization,
       reference=_fixed_decorrelated_reference,
       inputs=_fixed_decorrelated_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 1e-2}}})
