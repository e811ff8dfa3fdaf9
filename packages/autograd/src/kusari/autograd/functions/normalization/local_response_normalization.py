"""Local response normalization across channels."""
import numpy

from kusari.array import backend
from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.normalization._standardization import \
    compute_dtype
from kusari.autograd.utils import type_check


def _window_sum(a, half):
    """Sum of a over the channel window [c - half, c + half] (zero beyond
    the ends), as a new array."""
    total = a.copy()
    for offset in range(1, half + 1):
        total[:, offset:] += a[:, :-offset]
        total[:, :-offset] += a[:, offset:]
    return total


class ChannelWindowSum(function_node.FunctionNode):
    """y_c = sum of x over channels c - half .. c + half. Linear, and its
    window is symmetric, so it is its own adjoint."""

    def __init__(self, half):
        self.half = half

    def forward(self, inputs):
        return _window_sum(inputs[0], self.half),

    def backward(self, indexes, grad_outputs):
        return ChannelWindowSum(self.half).apply(grad_outputs)


class LocalResponseNormalization(function_node.FunctionNode):
    """y = x * (k + alpha * window_sum(x^2)) ** -beta over channels."""

    def __init__(self, n, k, alpha, beta):
        self.half = n // 2
        self.k = k
        self.alpha = alpha
        self.beta = beta

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f',
                          in_types[0].ndim >= 2)

    def _window(self, x):
        return _window_sum(
            backend.get_array_module(x).square(
                x, dtype=compute_dtype(x.dtype)), self.half)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        s = self._window(x)
        s *= self.alpha
        s += self.k
        numpy.power(s, -self.beta, out=s)
        s *= x
        return s.astype(x.dtype, copy=False),

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return cuda.elementwise(
            'T x, U s, U k, U alpha, U beta', 'T y',
            'y = (T)((U)x * pow(k + alpha * s, -beta))',
            'kusari_lrn_fwd')(x, self._window(x), self.k, self.alpha,
                              self.beta),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        s = ChannelWindowSum(self.half).apply((x * x,))[0] * self.alpha + \
            self.k
        scale = s ** -self.beta
        window = ChannelWindowSum(self.half).apply((gy * x * scale / s,))[0]
        return gy * scale - x * window * (2 * self.alpha * self.beta),


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=.75):
    """Local response normalization across channels (Krizhevsky et al.).

    :math:`y_c = x_c (k + \\alpha \\sum_{c'} x_{c'}^2)^{-\\beta}`, the sum
    over the channels :math:`c'` within ``n // 2`` of channel c (axis 1).

    Args:
        x: Variable or array, float, with at least 2 axes.
        n (int): the window size (channels c - n//2 to c + n//2).
        k (float): the bias.
        alpha (float): the scale of the sum.
        beta (float): the exponent.

    Returns:
        Variable of x's shape and dtype.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f'local_response_normalization: n must be a '
                         f'positive int, got {n!r}')
    y, = LocalResponseNormalization(n, k, alpha, beta).apply((x,))
    return y
