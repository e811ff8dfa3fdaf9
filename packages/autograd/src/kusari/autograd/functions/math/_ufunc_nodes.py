"""The shared shapes of elementwise math nodes, each computed by one ufunc.

Most elementwise functions compute ``y = f(x)`` with one NumPy/CuPy ufunc
(or a scipy.special / cupyx.scipy.special function) and have the gradient
``gx = gy * f'(x)``, where ``f'`` is written with other differentiable
functions so that it is differentiable again. Such a node is a subclass of
:class:`UnaryElementwise` (or :class:`BinaryElementwise` for two operands
that broadcast) that names its function and writes the gradient
expression; the forward pass, the type check, what is retained for
backward and the reduction of broadcast gradients live here once.
"""
import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.broadcast import sum_to
from kusari.autograd.functions.array.broadcast import sum_to_shape
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.graph_optimizations import fusion
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable
from kusari.autograd.variable import as_variable


def check_float_input(in_types):
    """The common check of one-input elementwise math: one float array."""
    type_check.argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


def special_functions(xp):
    """scipy.special for NumPy arrays, cupyx.scipy.special for CuPy's."""
    if xp is numpy:
        try:
            import scipy.special
        except ImportError as error:
            raise ImportError(
                'special functions (erf, digamma, zeta, ...) on NumPy arrays '
                'need SciPy; install it with "pip install scipy"') from error
        return scipy.special
    import cupyx.scipy.special
    return cupyx.scipy.special


def _is_array(value):
    return isinstance(value, numpy.ndarray) or lazy_cupy.is_cupy_array(value)


class UnaryElementwise(function_node.FunctionNode):
    """``y = f(x)`` elementwise, with ``gx = gy * f'(x)``.

    Subclasses set the class attributes below and implement
    :meth:`gradient`.

    Attributes:
        name (str): the public function's name, also the node's label.
        function (str): the name of ``f`` in NumPy and CuPy, or in
            scipy.special and cupyx.scipy.special if ``special``; ``name``
            by default.
        special (bool): whether ``f`` is a special function.
        retained (str): what :meth:`gradient` needs: ``'x'``, ``'y'``,
            ``'xy'`` or ``''``.
        arguments (tuple of str): the names of the inputs. All but the last
            are parameters that get no gradient (polygamma's ``n``); they
            broadcast with the last and are kept in ``self.parameters``.
    """

    name = None
    function = None
    special = False
    retained = 'x'
    arguments = ('x',)
    parameters = ()
    _input_shape = None
    type_check_attributes = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._retained_inputs = (
            (len(cls.arguments) - 1,) if 'x' in cls.retained else None)
        cls._retained_outputs = (0,) if 'y' in cls.retained else None

    @property
    def label(self):
        return self.name

    def check_type_forward(self, in_types):
        type_check.argname(in_types, self.arguments)
        type_check.expect(in_types[-1].dtype.kind == 'f')
        if len(in_types) > 1:
            type_check.expect_broadcast_shapes(
                *[in_type.shape for in_type in in_types])

    def compute(self, xp, inputs):
        """The forward computation on arrays; ``f`` by default."""
        module = special_functions(xp) if self.special else xp
        return getattr(module, self.function or self.name)(*inputs)

    def elementwise_expression(self):
        """``f(x0)`` where ``f`` is a function of the fusion language
        computed by :meth:`compute`'s default."""
        name = self.function or self.name
        if self.special or len(self.arguments) > 1 or \
                type(self).compute is not UnaryElementwise.compute or \
                name not in fusion.FUNCTIONS:
            return None
        return f'{name}(x0)'

    def forward(self, inputs):
        x = inputs[-1]
        if self._retained_inputs is not None:
            self.retain_inputs(self._retained_inputs)
        if self._retained_outputs is not None:
            self.retain_outputs(self._retained_outputs)
        y = force_array(
            self.compute(backend.get_array_module(x), inputs), x.dtype)
        if len(inputs) > 1:
            self.parameters = inputs[:-1]
            if y.shape != x.shape:
                self._input_shape = x.shape
        return y,

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0] if self._retained_inputs else None
        y = (self.get_retained_outputs()[0] if self._retained_outputs
             else None)
        gx = self.gradient(grad_outputs[0], x, y)
        if self._input_shape is not None:
            gx = sum_to(gx, self._input_shape)
        return (None,) * len(self.parameters) + (gx,)

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        gy, x, y = grad_outputs[0], inputs[-1], outputs[0]
        if gy.ndim == 0:
            # NumPy makes scalars of 0-d results, which functions refuse.
            gy, x, y = [None if a is None else Variable(a, requires_grad=False)
                        for a in (gy, x, y)]
        gx = self.gradient(gy, x, y)
        gx = force_array(gx.array if isinstance(gx, Variable) else gx)
        if self._input_shape is not None:
            gx = sum_to_shape(gx, self._input_shape)
        return (None,) * len(self.parameters) + (gx,)

    def gradient(self, gy, x, y):
        """``gy * f'(x)`` from ``gy`` and ``x`` and/or ``y`` (None where
        not retained): a Variable from Variables, written with operators
        and functions that take arrays too, as the array-level backward
        passes arrays of one or more axes (and takes a Variable result's
        array)."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement gradient')


class BinaryElementwise(function_node.FunctionNode):
    """``y = f(x1, x2)`` elementwise on float operands of one dtype.

    The operands broadcast (unless ``broadcast`` is false: then their
    shapes must be equal); both are retained, and :meth:`gradients` returns
    the gradients at the output's shape, which backward sums down to each
    operand's shape.

    Attributes:
        name (str): the public function's name, also the node's label.
        function (str): the NumPy/CuPy ufunc of ``f``; ``name`` by default.
        arguments (tuple of str): the names of the two inputs.
        broadcast (bool): whether the operands may differ in shape.
    """

    name = None
    function = None
    arguments = ('x1', 'x2')
    broadcast = True
    type_check_attributes = ()

    @property
    def label(self):
        return self.name

    def check_type_forward(self, in_types):
        type_check.argname(in_types, self.arguments)
        x1_type, x2_type = in_types
        type_check.expect(x1_type.dtype.kind == 'f',
                          x1_type.dtype == x2_type.dtype)
        if self.broadcast:
            type_check.expect_broadcast_shapes(x1_type.shape, x2_type.shape)
        else:
            type_check.expect(x1_type.shape == x2_type.shape)

    def compute(self, xp, x1, x2):
        """The forward computation on arrays; the ufunc by default."""
        return getattr(xp, self.function or self.name)(x1, x2)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        self._input_shapes = (x1.shape, x2.shape)
        y = self.compute(backend.get_array_module(x1), x1, x2)
        return force_array(y, x1.dtype),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gxs = self.gradients(grad_outputs[0], x1, x2)
        return tuple([sum_to(gxs[i], self._input_shapes[i])
                      for i in indexes])

    def gradients(self, gy, x1, x2):
        """The pair ``(gy * df/dx1, gy * df/dx2)`` as Variables."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement gradients')


class ElementwiseSelection(BinaryElementwise):
    """``y`` takes ``x1`` where ``comparison(x1, x2)`` holds, else ``x2``;
    the gradient flows to the operand taken (to ``x1`` on ties)."""

    comparison = None

    def elementwise_expression(self):
        # (maximum and minimum, computed by NumPy's ufuncs of their name.)
        return f'{self.name}(x0, x1)'

    def gradients(self, gy, x1, x2):
        x1, x2 = x1.array, x2.array
        xp = backend.get_array_module(x1)
        taken = getattr(xp, self.comparison)(x1, x2)
        x1_mask = taken.astype(gy.dtype)
        return gy * x1_mask, gy * (1 - x1_mask)


def piecewise_constant(name, module, summary, kinds='biuf'):
    """The public function ``name`` computing ``xp.<name>(x)``, for a
    piecewise constant function (floor, sign, ...).

    As in Chainer, such functions record no graph: the result is a Variable
    that requires no gradient, of the input's dtype.

    Args:
        name (str): the name of the function and of its NumPy/CuPy ufunc.
        module (str): the module defining the public function.
        summary (str): the first lines of its docstring.
        kinds (str): the dtype kinds of ``x`` it takes (those the ufunc
            has loops for; others are refused naming the function).
    """
    kind_names = [{'b': 'bool', 'i': 'integer', 'u': 'unsigned integer',
                   'f': 'float', 'c': 'complex'}[kind] for kind in kinds]
    expected = f'{", ".join(kind_names[:-1])} or {kind_names[-1]}'

    def function(x):
        array = x.array if isinstance(x, Variable) else x
        if not _is_array(array):
            raise type_check.not_an_array(name, 'x', x)
        if array.dtype.kind not in kinds:
            raise TypeError(f'{name}: x must be an array of {expected} '
                            f'dtype, got {array.dtype}')
        return as_variable(_elementwise(name, array))

    function.__name__ = function.__qualname__ = name
    function.__module__ = module
    function.__doc__ = summary + _PIECEWISE_CONSTANT_DOC
    return function


@static_code
def _elementwise(name, array):
    """``xp.<name>(array)`` in the array's dtype, as static code: the
    function records no node, so a static_graph replay computes it anew
    this way rather than reusing the recorded array."""
    y = getattr(backend.get_array_module(array), name)(array)
    return force_array(y, array.dtype)


_PIECEWISE_CONSTANT_DOC = """

    Piecewise constant, so it records no graph (as in Chainer).

    Args:
        x: Variable or array.

    Returns:
        Variable of the same shape and dtype that requires no gradient.
    """


def parameter_array(function_name, argument, value, like):
    """A parameter argument (polygamma's ``n``, zeta's ``x``) as an array
    on the device of ``like``; Python and NumPy scalars are converted."""
    if isinstance(value, Variable) or _is_array(value):
        return value
    if isinstance(value, (int, float, numpy.generic)) and not isinstance(
            value, bool):
        return backend.get_array_module(like).asarray(value)
    raise TypeError(
        f'{function_name}: {argument} must be a Variable, an array or a '
        f'scalar, got {type(value).__name__}')


def broadcast_along_axis(function_name, x, y, axis):
    """``y`` broadcast to ``x.shape``, its axes laid on ``x``'s axes from
    ``axis`` on (the operand shape of :func:`bias` and :func:`scale`)."""
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f'{function_name}: axis must be an int, got '
                        f'{type(axis).__name__}')
    x_shape, y_shape = x.shape, y.shape
    if not 0 <= axis <= len(x_shape) - len(y_shape):
        raise ValueError(
            f'{function_name}: axis must be in [0, {len(x_shape)} - '
            f'{len(y_shape)}] for x of shape {x_shape} and y of shape '
            f'{y_shape}, got {axis}')
    covered = x_shape[axis:axis + len(y_shape)]
    if any(s != 1 and s != t for s, t in zip(y_shape, covered)):
        raise ValueError(
            f'{function_name}: y.shape {y_shape} must match '
            f'x.shape[{axis}:{axis + len(y_shape)}] = {covered}')
    expanded = (1,) * axis + y_shape + (1,) * (
        len(x_shape) - axis - len(y_shape))
    return broadcast_to(reshape(y, expanded), x_shape)
