"""Elementwise linear interpolation."""
from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array


class LinearInterpolate(function_node.FunctionNode):
    """z = p x + (1 - p) y; dz/dp = x - y, dz/dx = p, dz/dy = 1 - p."""

    @property
    def label(self):
        return 'linear_interpolate'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('p', 'x', 'y'))
        p_type, x_type, y_type = in_types
        type_check.expect(
            p_type.dtype.kind == 'f',
            p_type.dtype == x_type.dtype,
            p_type.dtype == y_type.dtype,
            p_type.shape == x_type.shape,
            p_type.shape == y_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        return super().forward(inputs)

    def forward_cpu(self, inputs):
        p, x, y = inputs
        # y + p (x - y): one new array.
        z = x - y
        z *= p
        z += y
        return force_array(z),

    def forward_gpu(self, inputs):
        p, x, y = inputs
        kernel = cuda.elementwise(
            'T p, T x, T y', 'T z', 'z = y + p * (x - y)',
            'linear_interpolate_fwd')
        return kernel(p, x, y),

    def backward(self, indexes, grad_outputs):
        p, x, y = self.get_retained_inputs()
        gz, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gz * (x - y))
        if 1 in indexes or 2 in indexes:
            gx = gz * p
            if 1 in indexes:
                ret.append(gx)
            if 2 in indexes:
                ret.append(gz - gx)
        return ret


def linear_interpolate(p, x, y):
    """Elementwise linear interpolation :math:`p x + (1 - p) y`.

    Args:
        p: Variable or array, float: the weights of ``x``.
        x: Variable or array of the same shape and dtype.
        y: Variable or array of the same shape and dtype.

    Returns:
        Variable of the same shape and dtype.
    """
    return LinearInterpolate().apply((p, x, y))[0]
