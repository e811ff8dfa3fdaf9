"""Per-class precision, recall, F-beta score and support."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.evaluation import _metric


def _counts(xp, values, label_num):
    """How often each label of ``[0, label_num)`` occurs in ``values``."""
    values = values[values < label_num]
    return xp.bincount(values.ravel(), minlength=label_num)


def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Precision, recall, F-beta score and support of each class, for the
    predictions ``argmax(y, axis=1)``.

    Per class: precision = true positives / predicted, recall = true
    positives / support (positions labelled with it), and
    :math:`F_\\beta = (1 + \\beta^2) p r / (\\beta^2 p + r)`; a 0/0 gives
    NaN. Positions labelled ``ignore_label`` are not counted.

    Args:
        y: Variable or array ``(N, C, ...)``, float: class scores.
        t: int array ``(N, ...)``: labels.
        label_num (int): the number of classes; ``max(t) + 1`` if None.
        beta (float): the weight of recall in the F score.
        ignore_label (int): the label whose positions are not counted.

    Returns:
        tuple of Variables ``(label_num,)``: precision, recall and F-beta
        (float64, as in Chainer) and support (ints); they record no graph.
    """
    y, t = _metric.checked_arrays(
        'classification_summary', ('y', 't'), (y, t),
        lambda in_types: _metric.expect_class_scores(*in_types))
    return _metric.computed(_summary, y, t, label_num=label_num, beta=beta,
                            ignore_label=ignore_label)


def _summary(y, t, label_num, beta, ignore_label):
    xp = backend.get_array_module(y)
    if label_num is None:
        label_num = int(t.max()) + 1 if t.size else 0
    kept = t != ignore_label
    labels = t[kept]
    predicted = y.argmax(axis=1)[kept]
    support = _counts(xp, labels, label_num)
    relevant = _counts(xp, predicted, label_num)
    true_positive = _counts(xp, labels[predicted == labels], label_num)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        precision = true_positive / relevant
        recall = true_positive / support
        beta_squared = beta * beta
        fbeta = ((1 + beta_squared) * precision * recall
                 / (beta_squared * precision + recall))
    return precision, recall, fbeta, support


def precision(y, t, label_num=None, ignore_label=-1):
    """Per-class precision and support; see :func:`classification_summary`.
    """
    summary = classification_summary(y, t, label_num, 1.0, ignore_label)
    return summary[0], summary[3]


def recall(y, t, label_num=None, ignore_label=-1):
    """Per-class recall and support; see :func:`classification_summary`."""
    summary = classification_summary(y, t, label_num, 1.0, ignore_label)
    return summary[1], summary[3]


def f1_score(y, t, label_num=None, ignore_label=-1):
    """Per-class F1 score and support; see
    :func:`classification_summary`."""
    summary = classification_summary(y, t, label_num, 1.0, ignore_label)
    return summary[2], summary[3]
