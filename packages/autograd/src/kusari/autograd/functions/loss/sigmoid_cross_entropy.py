"""Cross entropy of pre-sigmoid activations against binary labels."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.loss import _common
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array

IGNORE_LABEL = -1


class SigmoidCrossEntropy(function_node.FunctionNode):
    """l = log(1 + exp(x)) - t x per element, 0 where t is -1;
    dl/dx = sigmoid(x) - t."""

    def __init__(self, normalize, reduce):
        self.normalize = normalize
        self.reduce = reduce

    def check_type_forward(self, in_types):
        x_type, t_type = _common.expect_scores_and_labels(in_types)
        type_check.expect(x_type.shape == t_type.shape)

    def forward(self, inputs):
        x, t = inputs
        _common.check_labels('sigmoid_cross_entropy', t, 2, IGNORE_LABEL)
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        scalar = x.dtype.type
        kept = t != IGNORE_LABEL
        # max(x, 0) - t x + log(1 + exp(-|x|)): exp never overflows.
        # (A ufunc of a 0-d array returns a scalar unless given out.)
        loss = xp.abs(x, out=xp.empty_like(x))
        xp.negative(loss, out=loss)
        xp.exp(loss, out=loss)
        xp.log1p(loss, out=loss)
        loss += xp.maximum(x, scalar(0))
        loss -= xp.multiply(x, t, dtype=x.dtype)
        loss *= kept
        # Scale of the mean: by the labels kept, or by the batch size.
        count = int(kept.sum()) if self.normalize else (
            x.shape[0] if x.ndim else 1)
        self._coefficient = 1 / max(count, 1)
        if self.reduce == 'no':
            return loss,
        total = loss.sum(dtype=_common.accumulation_dtype(x.dtype))
        return force_array(total * self._coefficient, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        t = t.array
        kept = (t != IGNORE_LABEL).astype(x.dtype)
        if self.reduce == 'mean':
            gy = broadcast_to(gy, x.shape)
            kept *= x.dtype.type(self._coefficient)
        return (sigmoid(x) - t.astype(x.dtype)) * gy * kept, None


def sigmoid_cross_entropy(x, t, normalize=True, reduce='mean'):
    """Cross entropy of the sigmoid of ``x`` against binary labels ``t``.

    Elementwise :math:`\\log(1 + e^{x}) - t x`, computed without overflow;
    elements whose label is -1 are ignored.

    Args:
        x: Variable or array, float: pre-sigmoid activations.
        t: array of ints of the shape of ``x``: 0, 1, or -1 (ignored).
        normalize (bool): with ``reduce='mean'``, divide the sum by the
            number of labels not ignored (True) or by ``x.shape[0]``.
        reduce (str): ``'mean'`` or ``'no'`` (elementwise, 0 where
            ignored).

    Returns:
        Variable: a scalar, or the shape of ``x``, of the dtype of ``x``.
    """
    _common.check_option('sigmoid_cross_entropy', 'reduce', reduce,
                         ('mean', 'no'))
    return SigmoidCrossEntropy(bool(normalize), reduce).apply((x, t))[0]
