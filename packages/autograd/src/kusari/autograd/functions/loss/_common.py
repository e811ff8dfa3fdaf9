"""Argument checks and reductions shared by the loss functions."""
import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd.functions.array.cast import cast
from kusari.autograd.functions.array.where import where
from kusari.autograd.functions.math.average import mean
from kusari.autograd.functions.math.sqrt import sqrt
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import as_array


def check_option(func_name, name, value, allowed):
    """Raise ValueError naming the function unless ``value`` is allowed."""
    if not isinstance(value, str) or value not in allowed:
        choices = ', '.join(repr(a) for a in allowed)
        raise ValueError(f'{func_name}: {name} must be one of {choices}; '
                         f'got {value!r}')


def check_inputs(func_name, names, inputs, check):
    """Run ``check(in_types)`` (type_check conditions) on the arrays of
    ``inputs`` named ``names``, for losses composed of other functions:
    the InvalidType raised names the loss and its arguments."""
    type_check.check_types(check, tuple(as_array(x) for x in inputs),
                           func_name, names)


def expect_same_float(*in_types):
    """All of ``in_types`` float, of one dtype and one shape."""
    first = in_types[0]
    type_check.expect(first.dtype.kind == 'f')
    for other in in_types[1:]:
        type_check.expect(first.dtype == other.dtype,
                          first.shape == other.shape)


def reduce_loss(loss, reduce):
    """``loss`` summed (``'sum'``), averaged (``'mean'``) or as it is."""
    if reduce == 'sum':
        return sum_(loss)
    if reduce == 'mean':
        return mean(loss)
    return loss


def check_labels(func_name, t, n_class, ignore_label):
    """Raise ValueError if a label of ``t`` is outside ``[0, n_class)`` and
    is not ``ignore_label``. Always on NumPy arrays, where it is cheap; on
    CuPy arrays only in debug mode, since it synchronizes the device."""
    t = as_array(t)
    if t.size == 0 or not (isinstance(t, numpy.ndarray)
                           or configuration.config.debug):
        return
    xp = backend.get_array_module(t)
    bad = (t < 0) | (t >= n_class)
    if ignore_label is not None:
        bad &= t != ignore_label
    if bool(bad.any()):
        value = int(t[bad].ravel()[0])
        ignored = ('' if ignore_label is None
                   else f' or equal ignore_label={ignore_label}')
        raise ValueError(
            f'{func_name}: labels in t must be in [0, {n_class}){ignored}; '
            f'got {value} (at index '
            f'{tuple(int(i) for i in xp.argwhere(bad)[0])})')


def expect_scores_and_labels(in_types):
    """Type-check the inputs ``(x, t)`` of a classification loss: float
    scores and int labels; returns their types."""
    type_check.argname(in_types, ('x', 't'))
    x_type, t_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', t_type.dtype.kind == 'i')
    return x_type, t_type


def accumulation_dtype(dtype):
    """float32 for float16 (sums of many float16 values lose precision),
    else ``dtype``."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def summed_mean(xp, values, dtype):
    """The mean of the array ``values`` (overwritten), summed in
    :func:`accumulation_dtype`, as a 0-d array of ``dtype``."""
    total = values.sum(dtype=accumulation_dtype(dtype))
    # An empty input has no mean: NaN, as numpy.mean gives.
    size = values.size
    return force_array(total / size if size else xp.asarray(xp.nan), dtype)


def check_same_float(func_name, names, inputs):
    """Type-check that ``inputs`` are float arrays of one dtype and shape.
    """
    check_inputs(func_name, names, inputs,
                 lambda in_types: expect_same_float(*in_types))


def safe_sqrt(squared):
    """sqrt of the Variable ``squared`` (non-negative), with gradient 0
    where it is 0 instead of an infinite one that would turn to NaN; NaN
    stays NaN, as sqrt gives it. The mask is a cast of ``squared``'s
    array (not a comparison in Python), so that a static graph's replay
    computes it anew."""
    xp = squared.xp
    nonzero = cast(squared.array, numpy.bool_)
    root = sqrt(where(nonzero, squared, xp.ones((), squared.dtype)))
    return where(nonzero, root, xp.zeros((), squared.dtype))
