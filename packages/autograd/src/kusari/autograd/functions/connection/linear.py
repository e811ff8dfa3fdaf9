"""Fully connected (linear) layer function."""
import math

from kusari.array import backend
from kusari.autograd import accumulation
from kusari.autograd import function_node
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.connection import _geometry
from kusari.autograd.functions.connection import _numpy_blas
from kusari.autograd.functions.math import _mixed_dtypes
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.functions.math.sum import sum as _sum
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import as_variable


class LinearFunction(function_node.FunctionNode):
    """y = x W^T + b for a matrix x ``(batch, in)``.

    The gradients are matrix products (gx = gy W, gW = gy^T x), themselves
    differentiable, so linear has gradients of every order. W may have
    another float dtype than x: the product is computed in their promotion
    and y has x's dtype.
    """

    type_check_attributes = ()

    def check_type_forward(self, in_types):
        # One or four inputs miss the two or three names: argname refuses.
        type_check.argname(in_types, ('x', 'W', 'b')[:max(len(in_types), 2)])
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f', w_type.dtype.kind == 'f',
            x_type.ndim == 2, w_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1])
        _geometry.expect_bias(in_types, w_type.shape[0])

    _mixed = False  # W's dtype is not x's (see _mixed_dtypes)

    def forward(self, inputs):
        x, W = inputs[:2]
        self.retain_inputs((0, 1))
        y = _geometry.gemm(x, W.T)
        if W.dtype != x.dtype:
            self._mixed = True
            y = y.astype(x.dtype)
        if len(inputs) == 3:
            y += inputs[2]
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = matmul(gy, W)
            ret.append(_mixed_dtypes.as_dtype_of(x, gx) if self._mixed
                       else gx)
        if 1 in indexes:
            gW = matmul(gy, x, transa=True)
            ret.append(_mixed_dtypes.as_dtype_of(W, gW) if self._mixed
                       else gW)
        if 2 in indexes:
            ret.append(_sum(gy, axis=0))
        return ret

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        x, W = inputs[:2]
        gy, = grad_outputs
        xp = backend.get_array_module(gy)
        ret = []
        if 0 in indexes:
            ret.append(xp.matmul(gy, W).astype(x.dtype, copy=False))
        if 1 in indexes:
            ret.append(xp.matmul(gy.swapaxes(-1, -2), x).astype(
                W.dtype, copy=False))
        if 2 in indexes:
            ret.append(force_array(gy.sum(axis=(0,))))
        return ret

    def array_backward_add(self, indexes, grad_outputs, inputs, outputs,
                           into):
        """:meth:`array_backward`, with W's gradient gy^T x added into
        its array in ``into`` (one per index: an array the caller lets it
        add into, or None) by one call of NumPy's BLAS where it can; the
        gradients left to add (None for W's where it was added)."""
        if 1 in indexes:
            gW = into[indexes.index(1)]
            if gW is not None and _numpy_blas.gemm_add(
                    gW, grad_outputs[0], inputs[0]):
                rest = iter(self.array_backward(
                    [i for i in indexes if i != 1], grad_outputs, inputs,
                    outputs))
                return [None if i == 1 else next(rest) for i in indexes]
        return self.array_backward(indexes, grad_outputs, inputs, outputs)

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """:meth:`backward` added to the pass's gradients so far. Where the
        pass alone holds W's gradient (a weight used at every step of a
        sequence), gy^T x is multiplied into it in place by one call of
        NumPy's BLAS; the pass is handed W's first gradient for that."""
        w_node = self.inputs[1]
        fused = False
        if 1 in target_input_indexes:
            gW = grad_inputs[target_input_indexes.index(1)]
            if gW is not None and accumulation.private(gW, w_node):
                x = self.get_retained_inputs()[0]
                fused = _numpy_blas.gemm_add(
                    gW.array, grad_outputs[0].array, x.array)
        computed = iter(self.backward(
            [i for i in target_input_indexes if not (fused and i == 1)],
            grad_outputs))
        ret = []
        for i, grad in zip(target_input_indexes, grad_inputs):
            if not (fused and i == 1):
                grad = accumulation.accumulate(grad, next(computed),
                                               self.inputs[i])
                if i == 1:
                    accumulation.hand_over(grad, w_node)
            ret.append(grad)
        return tuple(ret)


@type_check.checks_inputs
def linear(x, W, b=None, n_batch_axes=1):
    """Linear function: ``y = x W^T + b``.

    The first ``n_batch_axes`` axes of ``x`` are batch axes; the others are
    flattened into the input vector, whose length must be ``W.shape[1]``.

    Args:
        x: Variable or array ``(s_1, ..., s_B, ...)``, float.
        W: Weight ``(out, in)``, float (of any float dtype).
        b: Bias ``(out,)`` of x's dtype, or None.
        n_batch_axes (int): Number of batch axes B (at least 1).

    Returns:
        Variable ``(s_1, ..., s_B, out)`` of x's dtype.
    """
    if not isinstance(n_batch_axes, int) or isinstance(n_batch_axes, bool) \
            or n_batch_axes < 1:
        raise ValueError(f'linear: n_batch_axes must be a positive int; got '
                         f'{n_batch_axes!r}')
    x = as_variable(x)
    if x.ndim < n_batch_axes:
        raise ValueError(f'linear: x has {x.ndim} axes, fewer than '
                         f'n_batch_axes={n_batch_axes}')
    batch_shape = x.shape[:n_batch_axes]
    if x.ndim != 2 or n_batch_axes != 1:
        x = reshape(x, (math.prod(batch_shape),
                        math.prod(x.shape[n_batch_axes:])))
    inputs = (x, W) if b is None else (x, W, b)
    y, = LinearFunction().apply(inputs)
    if n_batch_axes > 1:
        y = reshape(y, batch_shape + (y.shape[1],))
    return y

