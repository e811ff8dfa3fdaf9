"""Discrete Fourier transforms over the last axis, on (real, imag)
pairs."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.utils import type_check

class FFT(function_node.FunctionNode):
    """The transform ``method`` ('fft' or 'ifft') of ``real + i * imag``.

    The adjoint of z -> F z (F the transform's matrix, symmetric) is
    g -> conj(F) g = swap(F swap(g)), where swap exchanges the real and
    imaginary parts (swap(v) = i conj(v)): the gradient is the same
    transform of the swapped pair, swapped back.
    """

    def __init__(self, method):
        self.method = method

    @property
    def label(self):
        return self.method

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('real', 'imag'))
        real, imag = in_types
        type_check.expect(real.dtype.kind == 'f', real.dtype == imag.dtype,
                          real.shape == imag.shape, real.ndim > 0)

    def forward(self, inputs):
        real, imag = inputs
        xp = backend.get_array_module(real)
        # float16 has no complex counterpart: compute in complex64.
        complex_dtype = numpy.result_type(real.dtype, numpy.complex64)
        z = xp.empty(real.shape, complex_dtype)
        z.real = real
        z.imag = imag
        y = getattr(xp.fft, self.method)(z)
        return y.real.astype(real.dtype), y.imag.astype(real.dtype)

    def backward(self, indexes, grad_outputs):
        g_real, g_imag = _zeros_for_none(grad_outputs)
        gx_imag, gx_real = FFT(self.method).apply((g_imag, g_real))
        return gx_real, gx_imag


def _zeros_for_none(grads):
    g_real, g_imag = grads
    if g_real is None:
        xp = backend.get_array_module(g_imag.array)
        g_real = xp.zeros_like(g_imag.array)
    elif g_imag is None:
        xp = backend.get_array_module(g_real.array)
        g_imag = xp.zeros_like(g_real.array)
    return g_real, g_imag


def _transform(method, x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise TypeError(f'{method}: x must be a pair (real, imag) of '
                        f'Variables or arrays; got {type(x).__name__}')
    return FFT(method).apply(tuple(x))


def fft(x):
    """Discrete Fourier transform over the last axis:
    :math:`y_k = \\sum_n x_n e^{-2 \\pi i k n / N}`.

    Args:
        x: a pair ``(real, imag)`` of Variables or arrays, float, of one
            shape with at least one axis.

    Returns:
        tuple ``(real, imag)`` of the result, in the input's dtype.
    """
    return _transform('fft', x)


def ifft(x):
    """Inverse discrete Fourier transform over the last axis:
    :math:`y_n = \\frac{1}{N} \\sum_k x_k e^{2 \\pi i k n / N}`.

    Args:
        x: a pair ``(real, imag)`` of Variables or arrays, float, of one
            shape with at least one axis.

    Returns:
        tuple ``(real, imag)`` of the result, in the input's dtype.
    """
    return _transform('ifft', x)
