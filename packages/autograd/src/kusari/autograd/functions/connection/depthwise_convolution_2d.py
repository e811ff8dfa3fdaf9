"""Depthwise two-dimensional convolution."""
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.connection.convolution_2d import \
    convolution_2d
from kusari.autograd.variable import as_variable
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Depthwise convolution: every input channel is convolved with its
    own ``channel_multiplier`` filters.

    Output channel ``c * channel_multiplier + m`` is input channel ``c``
    convolved with ``W[m, c]``. It is the grouped convolution with one
    group per input channel, and has gradients of every order.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        W: Filter ``(channel_multiplier, c, kh, kw)``.
        b: Bias ``(channel_multiplier * c,)`` or None.
        stride: int or pair ``(sy, sx)``.
        pad: int or pair ``(ph, pw)``.

    Returns:
        Variable ``(n, channel_multiplier * c, out_h, out_w)``.
    """
    x, W = as_variable(x), as_variable(W)
    if x.ndim != 4 or W.ndim != 4 or x.shape[1] != W.shape[1]:
        raise ValueError(
            f'depthwise_convolution_2d: x must be (n, c, h, w) and W '
            f'(channel_multiplier, c, kh, kw) with the same c; got x '
            f'{x.shape} and W {W.shape}')
    multiplier, channels, kh, kw = W.shape
    W = reshape(transpose(W, (1, 0, 2, 3)),
                (channels * multiplier, 1, kh, kw))
    return convolution_2d(x, W, b, stride, pad, groups=channels)
