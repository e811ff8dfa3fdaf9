"""Arithmetic: the nodes behind Variable's operators.

Two-operand forms broadcast as NumPy does and sum their gradients back to
each operand's shape. A Python or NumPy scalar operand becomes a constant
of the Variable's dtype (no graph edge, no broadcast array); an array
operand is cast to the Variable's dtype, two Variables must have one.
"""
import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import sum_to
from kusari.autograd.functions.array.broadcast import sum_to_shape
from kusari.autograd.functions.math import exponential
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable
from kusari.autograd.variable import as_variable


class _Binary(function_node.FunctionNode):
    """Shared checks and gradient reduction of broadcasting binary ops."""

    type_check_attributes = ()

    _shapes = None

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('lhs', 'rhs'))
        type_check.expect(in_types[0].dtype == in_types[1].dtype)
        type_check.expect_broadcast_shapes(in_types[0].shape,
                                           in_types[1].shape)

    def _note_shapes(self, lhs, rhs):
        if lhs.shape != rhs.shape:
            self._shapes = (lhs.shape, rhs.shape)

    def _reduce(self, index, gx):
        """Sum a gradient back to the shape of operand ``index``."""
        shapes = self._shapes
        return gx if shapes is None else sum_to(gx, shapes[index])

    def _reduce_array(self, index, gx):
        """:meth:`_reduce` on arrays (array-level backward)."""
        shapes = self._shapes
        return gx if shapes is None else sum_to_shape(gx, shapes[index])


class _FloatBinary(_Binary):
    """A broadcasting binary op defined for floats only."""

    type_check_attributes = ()

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        type_check.expect(in_types[0].dtype.kind == 'f')


class _Unary(function_node.FunctionNode):
    """Shared check of one-operand arithmetic: numeric input."""

    type_check_attributes = ()

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(type_check.is_in(in_types[0].dtype.kind, 'iufc'))


class _WithConstant(_Unary):
    """An operation between a Variable and a scalar constant.

    ``value`` is the constant in the input's dtype; ``_label`` is the
    formula of the label graph drawings show, with the constant as the
    caller wrote it, as Chainer's (``_ + 1``, ``_ * (-2.5)``).
    """

    _label = None

    def __init__(self, value, written=None):
        self.value = value
        self._written = value if written is None else written

    @property
    def label(self):
        written = self._written
        return self._label.format(
            f'({written})' if numpy.real(written) < 0 else written)


def _number(value):
    """A float constant as a number of the expression language (a
    complex one, of complex arrays, never reaches it)."""
    return repr(float(value))


class _FloatWithConstant(_WithConstant):
    """An operation with a constant defined for floats only."""

    type_check_attributes = ()

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')


class Neg(_Unary):
    @property
    def label(self):
        return '__neg__'

    def forward(self, inputs):
        return -inputs[0],

    def elementwise_expression(self):
        return '-x0'

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return force_array(-grad_outputs[0]),


class Absolute(_Unary):
    type_check_attributes = ()

    @property
    def label(self):
        return '|_|'

    def check_type_forward(self, in_types):
        # Floats only, as in Chainer (abs of ints has no gradient there).
        super().check_type_forward(in_types)
        type_check.expect(in_types[0].dtype.kind == 'f')

    def elementwise_expression(self):
        return 'absolute(x0)'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return abs(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        sign = backend.get_array_module(x.array).sign(x.array)
        return grad_outputs[0] * sign,


class Add(_Binary):
    @property
    def label(self):
        return '_ + _'

    def elementwise_expression(self):
        return 'x0 + x1'

    def forward(self, inputs):
        lhs, rhs = inputs
        self._note_shapes(lhs, rhs)
        return lhs + rhs,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple([self._reduce(i, gy) for i in indexes])

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        gy, = grad_outputs
        if self._shapes is None:
            return (gy,) * len(indexes)
        return tuple([self._reduce_array(i, gy) for i in indexes])


class AddConstant(_WithConstant):
    _label = '_ + {}'

    def elementwise_expression(self):
        return f'x0 + {_number(self.value)}'

    def forward(self, inputs):
        return inputs[0] + self.value,

    def backward(self, indexes, grad_outputs):
        return grad_outputs

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return grad_outputs


class Sub(_Binary):
    @property
    def label(self):
        return '_ - _'

    def elementwise_expression(self):
        return 'x0 - x1'

    def forward(self, inputs):
        lhs, rhs = inputs
        self._note_shapes(lhs, rhs)
        return lhs - rhs,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple([self._reduce(i, gy if i == 0 else -gy)
                      for i in indexes])

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        gy, = grad_outputs
        return tuple([self._reduce_array(
            i, gy if i == 0 else force_array(-gy)) for i in indexes])


class SubFromConstant(_WithConstant):
    _label = '{} - _'

    def elementwise_expression(self):
        return f'{_number(self.value)} - x0'

    def forward(self, inputs):
        return self.value - inputs[0],

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return force_array(-grad_outputs[0]),


class Mul(_Binary):
    @property
    def label(self):
        return '_ * _'

    def elementwise_expression(self):
        return 'x0 * x1'

    def forward(self, inputs):
        lhs, rhs = inputs
        self.retain_inputs((0, 1))
        self._note_shapes(lhs, rhs)
        return lhs * rhs,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        operands = self.get_retained_inputs()
        return tuple([self._reduce(i, gy * operands[1 - i])
                      for i in indexes])

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        gy, = grad_outputs
        lhs, rhs = inputs
        if self._shapes is None and len(indexes) == 2:  # (the usual case)
            return force_array(gy * rhs), force_array(gy * lhs)
        return tuple([self._reduce_array(i, force_array(gy * inputs[1 - i]))
                      for i in indexes])


class MulConstant(_WithConstant):
    _label = '_ * {}'

    def elementwise_expression(self):
        return f'x0 * {_number(self.value)}'

    def forward(self, inputs):
        return inputs[0] * self.value,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.value,

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return force_array(grad_outputs[0] * self.value),


class Div(_FloatBinary):
    @property
    def label(self):
        return '_ / _'

    def elementwise_expression(self):
        return 'x0 / x1'

    def forward(self, inputs):
        lhs, rhs = inputs
        self.retain_inputs((0, 1))
        self._note_shapes(lhs, rhs)
        return lhs / rhs,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        lhs, rhs = self.get_retained_inputs()
        g_lhs = gy / rhs
        ret = []
        if 0 in indexes:
            ret.append(self._reduce(0, g_lhs))
        if 1 in indexes:
            ret.append(self._reduce(1, -g_lhs * lhs / rhs))
        return ret


class DivByConstant(_FloatWithConstant):
    _label = '_ / {}'

    def elementwise_expression(self):
        return f'x0 / {_number(self.value)}'

    def forward(self, inputs):
        return inputs[0] / self.value,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] / self.value,


class DivFromConstant(_FloatWithConstant):
    _label = '{} / _'

    def elementwise_expression(self):
        return f'{_number(self.value)} / x0'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return self.value / x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * (-self.value) / (x * x),


class PowVarVar(_FloatBinary):
    @property
    def label(self):
        return '_ ** _'

    def forward(self, inputs):
        lhs, rhs = inputs
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        self._note_shapes(lhs, rhs)
        return lhs ** rhs,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        lhs, rhs = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        ret = []
        if 0 in indexes:
            ret.append(self._reduce(0, gy * rhs * lhs ** (rhs - 1)))
        if 1 in indexes:
            ret.append(self._reduce(1, gy * exponential.log(lhs) * y))
        return ret


class PowVarConst(_WithConstant):
    _label = '_ ** {}'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return x ** self.value,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        value = self.value
        if value == 2:
            return grad_outputs[0] * x * 2,
        return grad_outputs[0] * value * x ** (value - 1),


class PowConstVar(_FloatWithConstant):
    _label = '{} ** _'

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return xp.power(self.value, x, dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        log_value = numpy.log(self.value).astype(y.dtype)
        return grad_outputs[0] * y * log_value,


def _constant(x, value, op):
    """``value`` as a scalar of ``x``'s dtype, or a clear TypeError."""
    if isinstance(value, (int, float, bool, numpy.generic)):
        return x.dtype.type(value)
    raise TypeError(
        f'unsupported operand type for {op}: Variable and '
        f'{type(value).__name__} (expected a Variable, an array or a '
        f'scalar)')


def _array_operand(x, array):
    """An array operand of the Variable ``x``'s operator in x's dtype, as
    Chainer casts it (a float64 array added to a float32 Variable gives
    float32)."""
    return array if array.dtype == x.dtype else array.astype(x.dtype)


def binary_operator(node_class, constant_class, op):
    """The Variable operator ``self <op> other``: ``node_class`` applied to
    two arrays, or ``constant_class`` to a Python or NumPy scalar."""

    def operator(self, other):
        if isinstance(other, Variable):
            return node_class().apply((self, other))[0]
        if isinstance(other, numpy.ndarray) or lazy_cupy.is_cupy_array(other):
            return node_class().apply((self, _array_operand(self, other)))[0]
        return constant_class(_constant(self, other, op),
                              other).apply((self,))[0]

    return operator


def reflected_operator(node_class, constant_class, op):
    """The reflected Variable operator: ``other <op> self``."""

    def operator(self, other):
        if isinstance(other, Variable):
            return node_class().apply((other, self))[0]
        if isinstance(other, numpy.ndarray) or lazy_cupy.is_cupy_array(other):
            return node_class().apply((_array_operand(self, other), self))[0]
        return constant_class(_constant(self, other, op),
                              other).apply((self,))[0]

    return operator


def comparison_operator(ufunc_name):
    """A Variable comparison: the boolean array ``ufunc(self, other)`` (no
    graph: comparisons are not differentiable)."""
    def operator(self, other):
        xp = backend.get_array_module(self)
        other = other.array if isinstance(other, Variable) else other
        return getattr(xp, ufunc_name)(self.array, other)
    operator.__name__ = ufunc_name
    return operator


def neg(x):
    """``-x``."""
    return Neg().apply((x,))[0]


def absolute(x):
    """Elementwise ``|x|``; the gradient at 0 is 0.

    Args:
        x: Variable or array.

    Returns:
        Variable of the same shape and dtype.
    """
    return Absolute().apply((x,))[0]


def add(*xs):
    """Elementwise sum of several Variables or arrays (broadcasting)."""
    if len(xs) < 1:
        raise ValueError('add: at least one input is required')
    y = xs[0]
    for x in xs[1:]:
        y = Add().apply((y, x))[0]
    if len(xs) == 1:
        return as_variable(y)
    return y
