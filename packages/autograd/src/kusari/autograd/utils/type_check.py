"""Type checking of function inputs, with readable failure messages.

``FunctionNode.check_type_forward(in_types)`` states conditions on the shapes
and dtypes of its inputs with :func:`expect`. :func:`check_types` runs it at
most twice. First in *light mode*: ``in_types`` holds the concrete shapes and
dtypes, every condition is a plain bool, and the check costs about as much as
the comparisons themselves. Only if a condition fails does it run again in
*symbolic mode*, where ``in_types`` holds :class:`Expr` trees that remember
how each value was computed, so that the error shows the condition as written
(``x.shape[1] == W.shape[1]``) next to the values it compared.
"""
import abc
import operator
import threading

import numpy

from kusari.array import lazy_cupy


class InvalidType(TypeError):
    """Inputs of a function do not satisfy its type conditions.

    Attributes:
        expect (str): The condition that failed, as written.
        actual (str): What the condition found instead.
    """

    def __init__(self, expect, actual, msg=None):
        if msg is None:
            msg = f'Expect: {expect}\nActual: {actual}'
        super().__init__(msg)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        return type(self), (self.expect, self.actual, self.args[0])


# Light or symbolic mode


class _Mode(threading.local):
    light = False

    def __init__(self):
        self.outer = []  # modes to restore as ``with light_mode`` blocks exit


_mode = _Mode()


def in_light_mode():
    """Whether type checks of this thread run in light mode."""
    return _mode.light


class LightMode:
    """Context manager running the type checks of this thread in light mode.

    Inside ``with type_check.light_mode:``, :func:`get_types` gives concrete
    :class:`TypeInfo` objects and :func:`expect` only tests truth. Blocks
    nest, and each restores the mode it found.
    """

    def __enter__(self):
        _mode.outer.append(_mode.light)
        _mode.light = True
        return self

    def __exit__(self, *exc_info):
        _mode.light = _mode.outer.pop()


light_mode = LightMode()


# Expressions

# Python's operator precedence, low to high, numbered as Chainer numbers
# it (an Expr built by hand, BinaryOperator(4, ...), renders alike).
_COMPARISON = -1
_UNARY = 6
_ATOM = 8  # names, constants, attributes, subscriptions, calls


def _binary(symbol, priority, func, right_associative=False):
    """The methods for ``expr <symbol> other`` and its reflected form."""
    def apply(self, other):
        return BinaryOperator(priority, self, _operand(other), symbol, func,
                              right_associative)

    def reflected(self, other):
        return BinaryOperator(priority, _operand(other), self, symbol, func,
                              right_associative)
    return apply, reflected


def _comparison(symbol):
    def compare(self, other):
        return _compare(self, _operand(other), symbol)
    return compare


def _unary(symbol, func):
    def apply(self):
        return UnaryOperator(_UNARY, self, symbol, func)
    return apply


class Expr:
    """A node of an expression built from type information.

    Operators, attribute access, subscription and calls on an ``Expr`` build
    new nodes instead of computing values; :func:`eval` computes the value
    and ``str()`` renders the expression as Python source, for messages.
    """

    __slots__ = ()
    priority = _ATOM
    __array_ufunc__ = None  # NumPy operands defer to the reflected methods

    __eq__ = _comparison('==')
    __ne__ = _comparison('!=')
    __lt__ = _comparison('<')
    __le__ = _comparison('<=')
    __gt__ = _comparison('>')
    __ge__ = _comparison('>=')
    __hash__ = None

    __add__, __radd__ = _binary('+', 4, operator.add)
    __sub__, __rsub__ = _binary('-', 4, operator.sub)
    __mul__, __rmul__ = _binary('*', 5, operator.mul)
    __truediv__, __rtruediv__ = _binary('/', 5, operator.truediv)
    __floordiv__, __rfloordiv__ = _binary('//', 5, operator.floordiv)
    __mod__, __rmod__ = _binary('%', 5, operator.mod)
    __pow__, __rpow__ = _binary('**', 7, operator.pow, True)
    __lshift__, __rlshift__ = _binary('<<', 3, operator.lshift)
    __rshift__, __rrshift__ = _binary('>>', 3, operator.rshift)
    __and__, __rand__ = _binary('&', 2, operator.and_)
    __xor__, __rxor__ = _binary('^', 1, operator.xor)
    __or__, __ror__ = _binary('|', 0, operator.or_)

    __neg__ = _unary('-', operator.neg)
    __pos__ = _unary('+', operator.pos)
    __invert__ = _unary('~', operator.invert)

    def __getattr__(self, name):
        # Private and special names are probed by copy, NumPy, IPython...;
        # recording them would hand those callers an expression.
        if name.startswith('_'):
            raise AttributeError(
                f'{type(self).__name__} has no attribute {name!r} (only '
                f'public attributes are recorded in expressions)')
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    def __bool__(self):
        if _mode.light:
            return bool(self.eval())
        raise RuntimeError(
            f'the expression {self} has no truth value: pass conditions to '
            f'type_check.expect, and compute values with type_check.eval')

    def __iter__(self):
        raise TypeError(
            f'cannot iterate over the expression {self}: compute its value '
            f'with type_check.eval first')

    def __repr__(self):
        return f'<{type(self).__name__} {self}>'


class Testable(abc.ABC):
    """A condition that :func:`expect` can test and explain when it fails."""

    __slots__ = ()

    @abc.abstractmethod
    def expect(self):
        """Return if the condition holds, else raise :class:`InvalidType`."""


def _operand(value):
    return value if isinstance(value, Expr) else Constant(value)


class Constant(Expr):
    """A plain value inside an expression, shown as ``str(value)``."""

    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value

    @property
    def priority(self):
        # A negative number reads as a unary minus: (-1) ** n, not -1 ** n.
        return _UNARY if str(self).startswith('-') else _ATOM

    def eval(self):
        return eval(self.value)

    def __str__(self):
        return _repr(self.value)


class Variable(Expr):
    """A value shown by name: ``Variable(self.in_size, 'in_size')``.

    Prefer :func:`make_variable`, which costs nothing in light mode.
    """

    __slots__ = ('value', 'name')

    def __init__(self, value, name):
        self.value = value
        self.name = name

    def eval(self):
        return self.value

    def __str__(self):
        return self.name


class GetAttr(Expr):
    """Attribute access ``obj.name`` (``name`` a string, or an expression
    of one)."""

    __slots__ = ('obj', 'name')

    def __init__(self, obj, name):
        self.obj = obj
        self.name = name

    def eval(self):
        return getattr(self.obj.eval(), eval(self.name))

    def __str__(self):
        name = self.name
        if isinstance(name, Constant):
            name = name.value
        if isinstance(name, str):
            return f'{_repr(self.obj, _ATOM)}.{name}'
        return f'getattr({_repr(self.obj)}, {_repr(name)})'


class GetItem(Expr):
    """Subscription ``obj[key]``."""

    __slots__ = ('obj', 'key')

    def __init__(self, obj, key):
        self.obj = obj
        self.key = key

    def eval(self):
        return self.obj.eval()[eval(self.key)]

    def __str__(self):
        return f'{_repr(self.obj, _ATOM)}[{_render_key(self.key)}]'


class Call(Expr):
    """Call ``fn(*args)`` of an expression that evaluates to a callable."""

    __slots__ = ('fn', 'args')

    def __init__(self, fn, args):
        self.fn = fn
        self.args = tuple(args)

    def eval(self):
        return self.fn.eval()(*[eval(arg) for arg in self.args])

    def __str__(self):
        args = ', '.join(_repr(arg) for arg in self.args)
        return f'{_repr(self.fn, _ATOM)}({args})'


class BinaryOperator(Expr):
    """``left <symbol> right``, computed by ``func(left, right)``.

    ``priority`` is the operator's Python precedence; it decides where
    parentheses are needed when the expression is rendered.
    """

    __slots__ = ('priority', 'left', 'right', 'symbol', 'func',
                 'right_associative')

    def __init__(self, priority, left, right, symbol, func,
                 right_associative=False):
        self.priority = priority
        self.left = left
        self.right = right
        self.symbol = symbol
        self.func = func
        self.right_associative = right_associative

    def eval(self):
        return self.func(eval(self.left), eval(self.right))

    def __str__(self):
        # An operand of the same precedence needs parentheses on the side
        # the operator does not associate to; comparisons associate to none.
        tight = self.priority + 1
        left_min = tight if self.right_associative else self.priority
        right_min = self.priority if self.right_associative else tight
        if self.priority == _COMPARISON:
            left_min = right_min = tight
        return (f'{_repr(self.left, left_min)} {self.symbol} '
                f'{_repr(self.right, right_min)}')


class UnaryOperator(Expr):
    """``<symbol>operand``, computed by ``func(operand)``."""

    __slots__ = ('priority', 'operand', 'symbol', 'func')

    def __init__(self, priority, operand, symbol, func):
        self.priority = priority
        self.operand = operand
        self.symbol = symbol
        self.func = func

    def eval(self):
        return self.func(self.operand.eval())

    def __str__(self):
        return f'{self.symbol}{_repr(self.operand, self.priority)}'


_COMPARISONS = {  # symbol: (function, symbol of the negation)
    '==': (operator.eq, '!='), '!=': (operator.ne, '=='),
    '<': (operator.lt, '>='), '<=': (operator.le, '>'),
    '>': (operator.gt, '<='), '>=': (operator.ge, '<'),
}


class BoolBinaryOperator(BinaryOperator, Testable):
    """``lhs <exp> rhs`` for a comparison, computed by ``func``; fails
    showing both values with ``inv``, the negation of ``exp``.

    A failing ``x.ndim == 2`` reports ``Actual: 3 != 2``.
    """

    __slots__ = ('inv',)

    def __init__(self, lhs, rhs, exp, inv, func):
        super().__init__(_COMPARISON, lhs, rhs, exp, func)
        self.inv = inv

    def expect(self):
        left, right = eval(self.left), eval(self.right)
        if not self.func(left, right):
            raise InvalidType(
                str(self), f'{_repr(left)} {self.inv} {_repr(right)}')


def _compare(left, right, symbol):
    func, negation = _COMPARISONS[symbol]
    return BoolBinaryOperator(left, right, symbol, negation, func)


def _holds_expr(values):
    """Whether ``values`` (nested lists and tuples too) hold an Expr."""
    return any(isinstance(value, Expr) or type(value) in (tuple, list)
               and _holds_expr(value) for value in values)


def _repr(value, min_priority=_COMPARISON):
    """Source text of a value; parenthesized if it binds looser than needed.
    """
    if isinstance(value, Expr):
        text = str(value)
        return f'({text})' if value.priority < min_priority else text
    if type(value) in (tuple, list) and _holds_expr(value):
        items = ', '.join(_repr(item) for item in value)
        if type(value) is list:
            return f'[{items}]'
        return f'({items},)' if len(value) == 1 else f'({items})'
    return str(value)


def _render_key(key):
    if type(key) is tuple:
        return ', '.join(_render_key(part) for part in key)
    if type(key) is slice:
        text = ':'.join('' if bound is None else _repr(bound)
                        for bound in (key.start, key.stop))
        return text if key.step is None else f'{text}:{_repr(key.step)}'
    if key is Ellipsis:
        return '...'
    return repr(key) if isinstance(key, str) else _repr(key)


def eval(exp):
    """Value of ``exp``: computes an :class:`Expr`, returns others as they are.

    Tuples, lists and slices holding expressions are computed elementwise,
    so ``eval((x_type.shape[0], 3))`` gives a tuple of ints in both modes.
    """
    if isinstance(exp, Expr):
        return exp.eval()
    if type(exp) in (tuple, list) and _holds_expr(exp):
        return type(exp)(eval(item) for item in exp)
    if type(exp) is slice:
        return slice(eval(exp.start), eval(exp.stop), eval(exp.step))
    return exp


def make_variable(value, name):
    """``value``, shown as ``name`` in messages.

    A :class:`Variable`, or in light mode the value itself.
    """
    if _mode.light:
        return value
    return Variable(value, name)


def _product(values):
    result = 1
    for value in values:
        result *= value
    return result


def prod(values):
    """Product of ``values`` (say, a shape), shown as ``prod(...)``.

    ``prod(x_type.shape) == prod(y_type.shape)`` checks that two inputs have
    the same number of elements.
    """
    if _mode.light:
        return _product(values)
    return Call(Variable(_product, 'prod'), (values,))


# Types of the inputs


class TypeInfo:
    """Shape and dtype of one input, as the conditions of a check see them.

    Attributes:
        shape (tuple of ints): The shape.
        dtype (numpy.dtype): The dtype; ``None`` for an absent optional
            input.
        ndim (int): ``len(shape)``.
        size (int): The number of elements.
    """

    __slots__ = ('shape', 'dtype', 'ndim')

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)

    @property
    def size(self):
        return _product(self.shape)

    def __repr__(self):
        return f'TypeInfo(shape={self.shape}, dtype={self.dtype})'


class TypeInfoTuple(tuple):
    """Types of all inputs: ``in_types[i]`` is the type of input ``i``.

    Slices are ``TypeInfoTuple`` too, named after the slice in messages
    (``in_types[1:].size``).

    Attributes:
        name (str): How the tuple is called in messages.
    """

    name = 'in_types'

    def size(self):
        """Number of inputs: an int in light mode, else an expression."""
        if _mode.light:
            return len(self)
        return Variable(len(self), f'{self.name}.size')

    def __getitem__(self, key):
        if type(key) is slice:
            part = TypeInfoTuple(tuple.__getitem__(self, key))
            part.name = f'{self.name}[{_render_key(key)}]'
            return part
        return tuple.__getitem__(self, key)


class LightTypeInfoTuple(tuple):
    """The light-mode ``in_types``: the arrays themselves, indexed at C
    speed. Its slices are plain tuples; a check that needs more of them
    falls back to the symbolic run, which decides."""

    name = 'in_types'

    def size(self):
        return len(self)


def get_types(data, name, accept_none, shapes=None):
    """Types of ``data`` for a check: a :class:`TypeInfoTuple`.

    In light mode it holds :class:`TypeInfo` objects; otherwise
    :class:`Variable` expressions wrapping them, named ``{name}[i]``.

    Args:
        data (tuple of arrays): The inputs.
        name (str): How the inputs are called in messages (``'in_types'``).
        accept_none (bool): Whether an input may be ``None`` (an absent
            optional input); its type has shape ``()`` and dtype ``None``.
        shapes (sequence of tuples): Shapes to report instead of those of
            the arrays, one per input.
    """
    if not isinstance(data, (tuple, list)):
        raise TypeError(
            f'type_check.get_types: {name} must be a tuple of arrays, got '
            f'{type(data).__name__}')
    infos = None
    if shapes is None:
        try:
            infos = [TypeInfo(x.shape, x.dtype) for x in data]
        except AttributeError:  # None, or not an array: sorted out below
            pass
    if infos is None:
        infos = _checked_infos(data, name, accept_none, shapes)
    if _mode.light:
        return TypeInfoTuple(infos)
    types = TypeInfoTuple([Variable(info, f'{name}[{i}]')
                           for i, info in enumerate(infos)])
    types.name = name
    return types


def _checked_infos(data, name, accept_none, shapes):
    """TypeInfos of ``data``, with clear errors for what does not fit."""
    if shapes is not None and len(shapes) != len(data):
        raise ValueError(
            f'type_check.get_types: got {len(shapes)} shapes for the '
            f'{len(data)} arrays of {name}')
    infos = []
    for i, x in enumerate(data):
        if x is None and accept_none:
            infos.append(TypeInfo((), None))
            continue
        if not (hasattr(x, 'shape') and hasattr(x, 'dtype')):
            allowed = 'an array or None' if accept_none else 'an array'
            raise TypeError(
                f'type_check.get_types: {name}[{i}] must be {allowed}, got '
                f'{type(x).__name__}')
        shape = x.shape if shapes is None else tuple(shapes[i])
        infos.append(TypeInfo(shape, x.dtype))
    return infos


def argname(in_types, names):
    """Name the inputs in messages: ``argname(in_types, ('x', 'W'))``.

    Raises :class:`InvalidType` if the number of names is not the number of
    inputs. Costs only that check in light mode, where nothing is shown.
    """
    if len(in_types) != len(names):
        tuple_name = getattr(in_types, 'name', 'in_types')
        raise InvalidType(
            f'{tuple_name}.size == {len(names)} ({", ".join(names)})',
            f'{len(in_types)} != {len(names)}')
    if _mode.light:
        return
    for in_type, name in zip(in_types, names):
        if isinstance(in_type, Variable):
            in_type.name = name


# Chainer 7's name for it, which functions written after Chainer's own
# call.
_argname = argname


# Checking

_LIGHT_EXPECT = 'all conditions to hold'
_LIGHT_ACTUAL = ('one does not (light mode records no expressions; run the '
                 'check outside type_check.light_mode to see which)')


def expect(*bool_exprs):
    """Check conditions on input types; raise :class:`InvalidType` if one
    fails.

    Each condition is a comparison such as ``x_type.ndim == 2``, another
    expression whose value must be true, or a plain bool. In light mode the
    conditions are plain values and only their truth is tested.
    """
    if _mode.light:
        if not all(bool_exprs):
            raise InvalidType(_LIGHT_EXPECT, _LIGHT_ACTUAL)
        return
    for position, condition in enumerate(bool_exprs, 1):
        _expect_one(condition, position)


def _expect_one(condition, position):
    if isinstance(condition, Testable):
        condition.expect()
    elif isinstance(condition, Expr):
        value = condition.eval()
        if not value:
            raise InvalidType(str(condition), _repr(value))
    elif not condition:
        raise InvalidType(
            f'condition {position} of type_check.expect to hold (it was '
            f'given as a plain {type(condition).__name__}, so it cannot be '
            f'shown; build it from in_types to see it here)',
            _repr(condition))


def expect_broadcast_shapes(*shape_types):
    """Check that the shapes broadcast together (NumPy's rules).

    Args:
        shape_types: ``in_types[i].shape`` of the inputs concerned.
    """
    if _mode.light:
        shapes = shape_types
    else:
        shapes = [eval(shape) for shape in shape_types]
    first = shapes[0]
    for shape in shapes[1:]:
        if shape != first:
            break
    else:
        return
    try:
        numpy.broadcast_shapes(*shapes)
    except ValueError:
        names = 'shapes' if _mode.light else ', '.join(
            str(shape) for shape in shape_types)
        raise InvalidType(
            f'{names} to broadcast together',
            ', '.join(str(tuple(s)) for s in shapes)) from None


def same_types(*arrays):
    """Whether all arrays belong to one array module: all NumPy or all CuPy.
    """
    if all(isinstance(array, numpy.ndarray) for array in arrays):
        return True
    return all(lazy_cupy.is_cupy_array(array) for array in arrays)


def check_types(check_type_forward, in_data, function_name,
                input_names=None):
    """Run a ``check_type_forward`` on the types of ``in_data``.

    It runs in light mode first; only if that fails does it run again in
    symbolic mode, to build the message of the :class:`InvalidType` raised,
    whose first line is ``Invalid operation is performed in:
    {function_name} (Forward)``.

    Args:
        check_type_forward: Callable taking a :class:`TypeInfoTuple`.
        in_data (tuple of arrays): The inputs.
        function_name (str or FunctionNode): The function checked, for the
            message (a node's ``label`` is read only if the check fails).
        input_names (tuple of str): Names of the inputs in the message
            (``('x', 'W')``); by default ``in_types[0]``, ``in_types[1]``...
    """
    outer = _mode.light
    try:
        _mode.light = True
        # Arrays have shape, dtype, ndim and size: in light mode they serve
        # as their own TypeInfo, which saves building one per input.
        in_types = LightTypeInfoTuple(in_data)
        if input_names is not None:
            argname(in_types, input_names)
        check_type_forward(in_types)
        return
    except Exception as error:
        # Light mode computes every condition before expect() sees any, so
        # ``x.shape[1]`` may fail where a failing ``x.ndim == 2`` guards it;
        # symbolic mode computes them in order and reports the first.
        light_error = error
    finally:
        _mode.light = outer
    try:
        _run(check_type_forward, in_data, input_names, False)
    except InvalidType as error:
        _in_function(error, _name_of(function_name))
        raise
    finally:
        _mode.light = outer
    if not isinstance(light_error, InvalidType):
        # The light run stumbled where the symbolic one, which decides,
        # passed (e.g. ``in_types[1:].size()`` on a light slice).
        return
    raise _in_function(InvalidType(
        'check_type_forward to fail in symbolic mode as in light mode',
        'it passed: its conditions must not depend on '
        'type_check.in_light_mode()'), _name_of(function_name))


def _name_of(function):
    """A function's name for messages: a string, or the ``label`` of the
    FunctionNode given (read only on failure: labels may be computed)."""
    return function if isinstance(function, str) else function.label


def _run(check_type_forward, in_data, input_names, light):
    _mode.light = light
    in_types = get_types(in_data, 'in_types', False)
    if input_names is not None:
        argname(in_types, input_names)
    check_type_forward(in_types)


def _in_function(error, function_name):
    """Name the function in the message of ``error``; return ``error``."""
    error.args = (f'Invalid operation is performed in: {function_name} '
                  f'(Forward)\n\n{error.args[0]}',)
    return error
