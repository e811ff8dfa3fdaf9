"""Hinge loss of a one-of-many classification."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad
from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.loss import _common
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array


class Hinge(function_node.FunctionNode):
    """l[i, j] = max(0, 1 + s[i, j] x[i, j]) (squared for L2), with
    s = -1 at the true class t[i] and +1 elsewhere."""

    def __init__(self, norm, reduce):
        self.norm = norm
        self.reduce = reduce

    def check_type_forward(self, in_types):
        x_type, t_type = _common.expect_scores_and_labels(in_types)
        type_check.expect(x_type.ndim == 2, t_type.ndim == 1)
        type_check.expect(x_type.shape[0] == t_type.shape[0])

    def forward(self, inputs):
        x, t = inputs
        _common.check_labels('hinge', t, x.shape[1], None)
        xp = backend.get_array_module(x)
        self._sign = sign = xp.ones_like(x)
        sign[xp.arange(len(t)), t] = -1
        margin = x * sign
        margin += x.dtype.type(1)
        loss = xp.maximum(margin, x.dtype.type(0), out=margin)
        if self.norm == 'L1':
            # The slope where the margin is violated, 0 elsewhere.
            self._slope = sign * (loss > 0)
        else:
            self.retain_inputs((0,))
            xp.square(loss, out=loss)
        if self.reduce == 'no':
            return loss,
        total = loss.sum(dtype=_common.accumulation_dtype(x.dtype))
        return force_array(total / max(len(x), 1), x.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shape = self._sign.shape
        if self.reduce == 'mean':
            gy = broadcast_to(gy * (1.0 / max(shape[0], 1)), shape)
        if self.norm == 'L1':
            return ScaleGrad(self._slope).apply((gy,))[0], None
        x, = self.get_retained_inputs()
        sign = self._sign
        return gy * relu(x * sign + 1) * (2 * sign), None


def hinge(x, t, norm='L1', reduce='mean'):
    """Hinge loss of scores ``x`` for the true classes ``t``.

    :math:`l_{ij} = \\max(0, 1 + s_{ij} x_{ij})^p`, where :math:`s_{ij}`
    is -1 for the true class :math:`j = t_i` and +1 otherwise, and
    :math:`p` is 1 (``'L1'``) or 2 (``'L2'``).

    Args:
        x: Variable or array ``(N, K)``, float.
        t: array ``(N,)`` of int labels in ``[0, K)``.
        norm (str): ``'L1'`` or ``'L2'``.
        reduce (str): ``'mean'`` (the sum divided by ``N``) or ``'no'``
            (the ``(N, K)`` elementwise loss).

    Returns:
        Variable of the dtype of ``x``.
    """
    _common.check_option('hinge', 'norm', norm, ('L1', 'L2'))
    _common.check_option('hinge', 'reduce', reduce, ('mean', 'no'))
    return Hinge(norm, reduce).apply((x, t))[0]
