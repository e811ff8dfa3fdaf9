"""Classification accuracy."""
from kusari.array import backend
from kusari.autograd.functions.evaluation import _metric


def accuracy(y, t, ignore_label=None):
    """Fraction of the positions whose highest score (along axis 1) is at
    the true label.

    Args:
        y: Variable or array ``(N, C, ...)``, float: class scores.
        t: int array ``(N, ...)``: labels.
        ignore_label (int): None, or a label whose positions are not
            counted. Where every position is ignored, the accuracy is 0.

    Returns:
        Variable holding a scalar of the dtype of ``y``; it records no
        graph.
    """
    y, t = _metric.checked_arrays(
        'accuracy', ('y', 't'), (y, t),
        lambda in_types: _metric.expect_class_scores(*in_types))
    return _metric.computed(_accuracy, y, t, ignore_label=ignore_label)


def _accuracy(y, t, ignore_label):
    xp = backend.get_array_module(y)
    correct = y.argmax(axis=1) == t
    if ignore_label is None:
        total = t.size
    else:
        kept = t != ignore_label
        correct &= kept
        total = int(kept.sum())
    value = int(correct.sum()) / total if total else 0.0
    return xp.asarray(value, dtype=y.dtype)
