"""Cross entropy of pre-softmax activations against class labels, or
against soft target distributions."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _axis
from kusari.autograd.functions.activation.log_softmax import log_softmax
from kusari.autograd.functions.activation.softmax import softmax
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.average import mean
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import as_array

_NAME = 'softmax_cross_entropy'


def _work_array(x):
    """``x`` in float32 if it is float16: the log-sum-exp and the sums
    over the batch need the precision."""
    return x.astype(numpy.float32) if x.dtype == numpy.float16 else x


def _log_softmax_array(x):
    log_y = _axis.shifted_by_max(x, 1)
    if log_y.size:
        xp = backend.get_array_module(x)
        log_y -= xp.log(xp.exp(log_y).sum(axis=1, keepdims=True))
    return log_y


def _one_hot(t, n_class, dtype):
    """``(t[:, None] == arange(n_class))`` along axis 1, of ``dtype``."""
    xp = backend.get_array_module(t)
    classes = xp.arange(n_class).reshape((1, n_class) + (1,) * (t.ndim - 1))
    return (xp.expand_dims(t, 1) == classes).astype(dtype)


def _subtract_one_hot(y, t):
    """``y -= _one_hot(t)`` in place: 1 off the labelled entry of each
    position, no other entry touched."""
    xp = backend.get_array_module(y)
    index = [xp.arange(size).reshape((-1,) + (1,) * (t.ndim - 1 - axis))
             for axis, size in enumerate(t.shape)]
    index.insert(1, t)
    y[tuple(index)] -= 1


class SoftmaxCrossEntropy(function_node.FunctionNode):
    """l = -w[t] log softmax(x)[t] at each position of ``t`` (0 where t is
    ``ignore_label``), summed and scaled, or kept per position."""

    # (class_weight: None, or an array, which makes every call checked.)
    type_check_attributes = ('class_weight',)

    def __init__(self, normalize, cache_score, class_weight, ignore_label,
                 reduce):
        self.normalize = normalize
        self.cache_score = cache_score
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce

    @property
    def label(self):
        return _NAME

    def check_type_forward(self, in_types):
        x_type, t_type = _common.expect_scores_and_labels(in_types)
        type_check.expect(x_type.ndim == t_type.ndim + 1,
                          x_type.ndim >= 2)
        type_check.expect(x_type.shape[0] == t_type.shape[0],
                          x_type.shape[2:] == t_type.shape[1:])
        if self.class_weight is not None:
            type_check.expect(x_type.shape[1] == self.class_weight.shape[0])

    def forward(self, inputs):
        x, t = inputs
        n_class = x.shape[1]
        _common.check_labels(_NAME, t, n_class, self.ignore_label)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        log_y = _log_softmax_array(_work_array(x))
        kept = t != self.ignore_label
        self._safe_t = safe_t = xp.where(kept, t, 0)
        loss = xp.take_along_axis(log_y, xp.expand_dims(safe_t, 1), axis=1)
        loss = xp.negative(loss.reshape(t.shape))
        weights = kept.astype(log_y.dtype)
        if self.class_weight is not None:
            weights *= self.class_weight.astype(log_y.dtype)[safe_t]
        loss *= weights
        self._log_y = log_y if self.cache_score else None
        self._weights = weights
        if self.reduce == 'no':
            return loss.astype(x.dtype, copy=False),
        count = int(kept.sum()) if self.normalize else x.shape[0]
        coefficient = log_y.dtype.type(1 / max(count, 1))
        weights *= coefficient
        return force_array(loss.sum() * coefficient, x.dtype),

    def _grad(self):
        """The node of x's gradient, from what forward kept."""
        return SoftmaxCrossEntropyGrad(self._safe_t, self._weights,
                                       self._log_y)

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return self._grad().apply((x, grad_outputs[0]))[0], None

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return self._grad().forward((inputs[0], grad_outputs[0]))[0], None


class SoftmaxCrossEntropyGrad(function_node.FunctionNode):
    """gx = (softmax(x) - onehot(t)) * gy * c along axis 1, with ``c`` the
    weight of each position (0 where ignored, scaled for the mean)."""

    def __init__(self, t, weights, log_y):
        self.t = t
        self.weights = weights
        self.log_y = log_y

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        work = _work_array(x)
        y = _log_softmax_array(work) if self.log_y is None else self.log_y
        y = xp.exp(y)
        _subtract_one_hot(y, self.t)
        y *= xp.expand_dims(self.weights * gy.astype(y.dtype), 1)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        weights = self.weights.astype(x.dtype, copy=False)
        s = softmax(x, axis=1)
        ret = []
        if 0 in indexes:
            scale = expand_dims(broadcast_to(gy, weights.shape) * weights, 1)
            s_ggx = sum_(s * ggx, axis=1, keepdims=True)
            ret.append(scale * s * (ggx - s_ggx))
        if 1 in indexes:
            residual = s - _one_hot(self.t, x.shape[1], x.dtype)
            g_gy = sum_(residual * ggx, axis=1) * weights
            ret.append(sum_(g_gy) if gy.ndim == 0 else g_gy)
        return ret


class TargetEntropy(function_node.FunctionNode):
    """sum_c t_c log t_c along axis 1 (0 log 0 taken as 0): what the KL
    divergence adds to the cross entropy. A node, so that a static graph's
    replay computes it from that call's targets; as in Chainer, no
    gradient flows to ``t`` through it."""

    def forward(self, inputs):
        t, = inputs
        xp = backend.get_array_module(t)
        entropy = t * xp.log(xp.where(t > 0, t, 1))
        return entropy.sum(axis=1),

    def backward(self, indexes, grad_outputs):
        return None,


def _soft_target_loss(x, t, soft_target_loss, reduce):
    """The loss against target distributions ``t`` along axis 1."""
    _common.check_same_float(_NAME, ('x', 't'), (x, t))
    t = as_array(t)
    loss = -sum_(log_softmax(x, axis=1) * t, axis=1)
    if soft_target_loss == 'kl-divergence':
        loss = loss + TargetEntropy().apply((t,))[0]
    return mean(loss) if reduce == 'mean' else loss


def _class_weight_array(class_weight):
    class_weight = as_array(class_weight)
    if not hasattr(class_weight, 'dtype') or class_weight.ndim != 1 \
            or class_weight.dtype.kind != 'f':
        raise TypeError(
            f'{_NAME}: class_weight must be a 1-D float array (one weight '
            f'per class), got {class_weight!r}')
    return class_weight


def softmax_cross_entropy(x, t, normalize=True, cache_score=True,
                          class_weight=None, ignore_label=-1, reduce='mean',
                          enable_double_backprop=False,
                          soft_target_loss='cross-entropy'):
    """Cross entropy of the softmax of ``x`` (along axis 1) against ``t``.

    With integer labels, the loss at each position is
    :math:`-w_{t} \\log \\mathrm{softmax}(x)_{t}` (0 where ``t`` is
    ``ignore_label``). With float targets of the shape of ``x`` (soft
    labels), it is :math:`-\\sum_c t_c \\log \\mathrm{softmax}(x)_c`, or
    the KL divergence :math:`\\sum_c t_c (\\log t_c - \\log
    \\mathrm{softmax}(x)_c)`. The log-softmax is computed without overflow.

    Args:
        x: Variable or array ``(N, C, ...)``, float: pre-softmax
            activations.
        t: array ``(N, ...)`` of int labels in ``[0, C)`` or
            ``ignore_label``; or float targets of the shape of ``x``.
        normalize (bool): with integer labels and ``reduce='mean'``,
            divide by the number of labels not ignored (True) or by ``N``.
            Soft-target losses are always averaged over all positions.
        cache_score (bool): keep the softmax for backward (more memory)
            instead of computing it again.
        class_weight: None, or a float array ``(C,)`` weighting each class
            (integer labels only; as in Chainer, soft targets are not
            weighted).
        ignore_label (int): the label whose positions add nothing.
        reduce (str): ``'mean'`` (a scalar) or ``'no'`` (one value per
            position of ``t``, or per ``x`` with axis 1 removed).
        enable_double_backprop (bool): accepted for compatibility; the
            gradient is always differentiable again here.
        soft_target_loss (str): ``'cross-entropy'`` or ``'kl-divergence'``.

    Returns:
        Variable of the dtype of ``x``.
    """
    _common.check_option(_NAME, 'reduce', reduce, ('mean', 'no'))
    _common.check_option(_NAME, 'soft_target_loss', soft_target_loss,
                         ('cross-entropy', 'kl-divergence'))
    if not isinstance(enable_double_backprop, bool):
        raise TypeError(f'{_NAME}: enable_double_backprop must be a bool, '
                        f'got {type(enable_double_backprop).__name__}')
    t_array = as_array(t)
    if getattr(t_array, 'dtype', None) is not None \
            and t_array.dtype.kind == 'f':
        return _soft_target_loss(x, t, soft_target_loss, reduce)
    if class_weight is not None:
        class_weight = _class_weight_array(class_weight)
    node = SoftmaxCrossEntropy(bool(normalize), bool(cache_score),
                               class_weight, ignore_label, reduce)
    return node.apply((x, t))[0]
