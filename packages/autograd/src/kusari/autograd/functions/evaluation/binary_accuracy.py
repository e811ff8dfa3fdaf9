"""Binary classification accuracy."""
from kusari.array import backend
from kusari.autograd.functions.evaluation import _metric
from kusari.autograd.utils import type_check


def _check(in_types):
    y_type, t_type = in_types
    type_check.expect(y_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                      y_type.shape == t_type.shape)


def binary_accuracy(y, t):
    """Fraction of the elements whose prediction ``y >= 0`` matches the
    binary label; labels of -1 are not counted.

    Args:
        y: Variable or array, float: pre-sigmoid scores.
        t: int array of the shape of ``y``: 0, 1, or -1 (ignored).

    Returns:
        Variable holding a scalar of the dtype of ``y`` (0 where every
        label is ignored); it records no graph.
    """
    y, t = _metric.checked_arrays('binary_accuracy', ('y', 't'), (y, t),
                                  _check)
    return _metric.computed(_binary_accuracy, y, t)


def _binary_accuracy(y, t):
    xp = backend.get_array_module(y)
    kept = t != -1
    correct = ((y >= 0) == t) & kept
    total = int(kept.sum())
    value = int(correct.sum()) / total if total else 0.0
    return xp.asarray(value, dtype=y.dtype)
