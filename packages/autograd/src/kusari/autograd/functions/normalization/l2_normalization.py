"""L2 normalization of vectors along axes."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.math._ufunc_nodes import check_float_input
from kusari.autograd.functions.math.sqrt import sqrt
from kusari.autograd.functions.math.sum import expect_axes_in_range
from kusari.autograd.functions.math.sum import normalize_axis
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.functions.normalization._standardization import \
    compute_dtype


class NormalizeL2(function_node.FunctionNode):
    """y = x / (||x||_2 + eps), the norm taken over ``axis``."""

    def __init__(self, eps, axis):
        self.eps = eps
        self.axis = axis

    def check_type_forward(self, in_types):
        check_float_input(in_types)
        expect_axes_in_range(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        dtype = compute_dtype(x.dtype)
        # Written into arrays: a 0-d x would give NumPy scalars otherwise.
        y = xp.empty(x.shape, dtype)
        xp.square(x, out=y, dtype=dtype)
        norm = xp.sqrt(y.sum(axis=self.axis, keepdims=True))
        norm += dtype.type(self.eps)
        xp.divide(x, norm, out=y)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        norm = sqrt(sum_(x * x, axis=self.axis, keepdims=True))
        # Where x is all zeros the second term vanishes; keep 0 / 0 out.
        safe_norm = norm + (norm.array == 0).astype(norm.dtype)
        denominator = norm + self.eps
        projection = sum_(gy * x, axis=self.axis, keepdims=True)
        return (gy / denominator -
                x * (projection / (denominator * denominator * safe_norm))),


def normalize(x, eps=1e-5, axis=1):
    """L2 normalization: :math:`y = x / (\\|x\\|_2 + \\epsilon)`, the norm
    taken over ``axis`` for each position of the other axes.

    Args:
        x: Variable or array, float.
        eps (float): added to the norm, so that zero vectors stay finite.
        axis (int or tuple of ints): the axes of the vectors.

    Returns:
        Variable of x's shape and dtype.
    """
    axis = normalize_axis('normalize', axis)
    if axis is None:
        raise TypeError('normalize: axis must be an int or a tuple of ints, '
                        'got None')
    y, = NormalizeL2(eps, axis).apply((x,))
    return y


