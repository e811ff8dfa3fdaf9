"""Layer-wise adaptive rate scaling (LARS) of gradients."""
from kusari.array import backend


class GradientLARS:
    """Hook for layer-wise adaptive rate scaling (You et al.,
    arXiv:1708.03888).

    Each gradient (with weight decay added) is scaled by
    ``||param|| / (||grad|| + weight_decay * ||param|| + eps)`` when
    ``||param|| > threshold`` (left as it is otherwise)::

        grad = (grad + weight_decay * param) * rate

    With SGD or MomentumSGD the learning rate then plays the part of the
    global rate times LARS's coefficient.

    Args:
        threshold (float): the parameter norm above which it scales.
        weight_decay (float): coefficient of the weight decay.
        eps (float): small value for numerical stability.

    Attributes:
        threshold, weight_decay, eps (float): as given.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold=1e-2, weight_decay=0.0, eps=1e-9):
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        array, grad = param.array, param.grad
        if array is None or grad is None:
            return
        xp = backend.get_array_module(array)
        with backend.get_device_from_array(array):
            param_norm = xp.linalg.norm(array)
            grad_norm = xp.linalg.norm(grad)
            local_rate = param_norm / (
                self.eps + grad_norm + self.weight_decay * param_norm)
            rate = xp.where(param_norm > self.threshold, local_rate, 1.0)
            if self.weight_decay != 0:
                grad += self.weight_decay * array
            grad *= rate.astype(grad.dtype)
