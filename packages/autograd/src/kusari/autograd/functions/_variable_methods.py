"""Variable's operators and convenience methods, all in one table.

The engine's :class:`~kusari.autograd.variable.Variable` holds an array,
its gradient and its place in the graph, and knows no function of this
library. Its arithmetic (``x * w + b``, ``x @ W``, ``-x``, ``x ** 2``),
comparisons, indexing (``x[i]``) and shape methods (``reshape``,
``transpose``, ``T``, ``mean``) are functions of the library, given to the
class by :func:`install`: ``import kusari.autograd`` calls it once, so they
are there for every user of the package.
"""
from kusari.autograd.functions.array.get_item import get_item
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.math.basic_math import Add
from kusari.autograd.functions.math.basic_math import AddConstant
from kusari.autograd.functions.math.basic_math import Div
from kusari.autograd.functions.math.basic_math import DivByConstant
from kusari.autograd.functions.math.basic_math import DivFromConstant
from kusari.autograd.functions.math.basic_math import Mul
from kusari.autograd.functions.math.basic_math import MulConstant
from kusari.autograd.functions.math.basic_math import PowConstVar
from kusari.autograd.functions.math.basic_math import PowVarConst
from kusari.autograd.functions.math.basic_math import PowVarVar
from kusari.autograd.functions.math.basic_math import Sub
from kusari.autograd.functions.math.basic_math import SubFromConstant
from kusari.autograd.functions.math.basic_math import absolute
from kusari.autograd.functions.math.basic_math import (
    binary_operator as _binary)
from kusari.autograd.functions.math.basic_math import (
    comparison_operator as _compare)
from kusari.autograd.functions.math.basic_math import neg
from kusari.autograd.functions.math.basic_math import (
    reflected_operator as _reflected)
from kusari.autograd.functions.math.average import average
from kusari.autograd.functions.math.floor import floor
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.variable import Variable

_truediv = _binary(Div, DivByConstant, '/')
_rtruediv = _reflected(Div, DivFromConstant, '/')


def _subtract_constant(value, written):
    return AddConstant(-value, -written)


def _reshape(self, *shape):
    """Differentiable reshape; accepts ``reshape(2, 3)`` or a tuple."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return reshape(self, shape)


def _transpose(self, *axes):
    """Differentiable transpose; no axes reverses them."""
    if not axes:
        axes = None
    elif len(axes) == 1 and (axes[0] is None
                             or isinstance(axes[0], (tuple, list))):
        axes = axes[0]
    return transpose(self, axes)


def _transposed(self):
    """The transpose, as a differentiable function of this Variable."""
    return transpose(self)


def _mean(self, axis=None, *, weights=None, keepdims=False):
    """The (weighted) average over ``axis``, as
    :func:`~kusari.autograd.functions.average` computes it."""
    return average(self, axis, weights, keepdims)


METHODS = {
    '__neg__': neg,
    '__abs__': absolute,
    '__pos__': lambda self: self,
    '__add__': _binary(Add, AddConstant, '+'),
    '__radd__': _reflected(Add, AddConstant, '+'),
    '__sub__': _binary(Sub, _subtract_constant, '-'),
    '__rsub__': _reflected(Sub, SubFromConstant, '-'),
    '__mul__': _binary(Mul, MulConstant, '*'),
    '__rmul__': _reflected(Mul, MulConstant, '*'),
    '__truediv__': _truediv,
    '__rtruediv__': _rtruediv,
    # (floor of the quotient, as Chainer computes it: no gradient.)
    '__floordiv__': lambda self, other: floor(_truediv(self, other)),
    '__rfloordiv__': lambda self, other: floor(_rtruediv(self, other)),
    '__pow__': _binary(PowVarVar, PowVarConst, '**'),
    '__rpow__': _reflected(PowVarVar, PowConstVar, '**'),
    '__matmul__': matmul,
    '__rmatmul__': lambda self, other: matmul(other, self),
    '__lt__': _compare('less'),
    '__le__': _compare('less_equal'),
    '__gt__': _compare('greater'),
    '__ge__': _compare('greater_equal'),
    '__eq__': _compare('equal'),
    '__ne__': _compare('not_equal'),
    '__getitem__': get_item,
    'reshape': _reshape,
    'transpose': _transpose,
    'T': property(_transposed),
    'mean': _mean,
}
"""Name -> the method (or property) :func:`install` gives Variable."""


def install():
    """Give :class:`~kusari.autograd.variable.Variable` the operators and
    convenience methods of :data:`METHODS`. Idempotent."""
    for name, method in METHODS.items():
        setattr(Variable, name, method)
