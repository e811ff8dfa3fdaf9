"""A sparse linear map given by flat indexes, and its adjoint.

Max pooling's gradient, unpooling with indices and the ROI poolings all
move values between positions known after forward: output element ``j``
reads ``sum_t weight[j, t] * buffer.flat[index[j, t]]``. :class:`Gather`
is that map and :class:`Scatter` its adjoint; each is the other's
gradient, so these functions have gradients of every order.

The buffer may be a zero-padded copy of the array (``inner`` locates the
array in it), so that indexes into the padding need no special case.
"""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _scatter
from kusari.autograd.utils import type_check


class _IndexedMap(function_node.FunctionNode):
    """``index``: int array, the output shape (one-to-one, ``weight``
    None) or the output shape plus a last axis of terms (with ``weight``
    of the same shape). ``buffer_shape``: shape of the indexed buffer;
    ``inner``: index of the array in it, None when they coincide.
    ``unique``: no index repeats (a scatter can assign instead of add)."""

    def __init__(self, index, weight, buffer_shape, inner, unique):
        self.index = index
        self.weight = weight
        self.buffer_shape = tuple(buffer_shape)
        self.inner = inner
        self.unique = unique

    def _adjoint(self, cls):
        return cls(self.index, self.weight, self.buffer_shape, self.inner,
                   self.unique)


class Scatter(_IndexedMap):
    """``gx.flat[index] += weight * g``: the adjoint of :class:`Gather`."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        shape = self.index.shape
        if self.weight is not None:
            shape = shape[:-1]
        type_check.expect(x_type.dtype.kind == 'f', x_type.shape == shape)

    def forward(self, inputs):
        g, = inputs
        xp = backend.get_array_module(g)
        values = g
        if self.weight is not None:
            values = g[..., None] * self.weight.astype(g.dtype, copy=False)
        buffer = xp.zeros(int(numpy.prod(self.buffer_shape)), dtype=g.dtype)
        if self.unique:
            buffer[self.index.ravel()] = values.ravel()
        else:
            _scatter.scatter_add(buffer, self.index.ravel(), values.ravel())
        buffer = buffer.reshape(self.buffer_shape)
        if self.inner is None:
            return buffer,
        return xp.ascontiguousarray(buffer[self.inner]),

    def backward(self, indexes, grad_outputs):
        return self._adjoint(Gather).apply(grad_outputs)


class Gather(_IndexedMap):
    """``y = sum_t weight * x.flat[index]`` (the zero-padded ``x``), plus
    ``offset`` if given (a constant array of y's shape)."""

    def __init__(self, index, weight, buffer_shape, inner=None,
                 unique=False, offset=None):
        super().__init__(index, weight, buffer_shape, inner, unique)
        self.offset = offset

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        if self.inner is not None:
            buffer = xp.zeros(self.buffer_shape, dtype=x.dtype)
            buffer[self.inner] = x
            x = buffer
        values = x.ravel()[self.index]
        if self.weight is not None:
            values *= self.weight.astype(x.dtype, copy=False)
            values = values.sum(axis=-1)
        if self.offset is not None:
            values += self.offset.astype(x.dtype, copy=False)
        return values,

    def backward(self, indexes, grad_outputs):
        return self._adjoint(Scatter).apply(grad_outputs)
