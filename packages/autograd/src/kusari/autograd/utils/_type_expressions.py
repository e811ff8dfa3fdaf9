"""The expressions of type checks, and the two modes they are built in.

In *symbolic mode* a ``check_type_forward`` sees :class:`Expr` trees that
remember how each value was computed, so that a failing condition shows as
written (``x.shape[1] == W.shape[1]``) next to the values it compared; in
*light mode* it sees plain values and these helpers cost nothing. Both
raise :class:`InvalidType`. :mod:`kusari.autograd.utils.type_check` builds
the checks on them and is the module to import (``chainer.utils.type_check``
holds all of these names too).
"""
import abc
import operator
import threading


class InvalidType(TypeError):
    """Inputs of a function do not satisfy its type conditions.

    Attributes:
        expect (str): The condition that failed, as written.
        actual (str): What the condition found instead.
    """

    # Its public home, as tracebacks and pickles name it.
    __module__ = 'kusari.autograd.utils.type_check'

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


# This thread's mode: ``mode.light`` (type_check reads it in every check).
mode = _Mode()


def in_light_mode():
    """Whether type checks of this thread run in light mode."""
    return mode.light


class LightMode:
    """Context manager running the type checks of this thread in light mode.

    Inside ``with type_check.light_mode:``, :func:`get_types` gives concrete
    :class:`TypeInfo` objects and :func:`expect` only tests truth. Blocks
    nest, and each restores the mode it found.
    """

    def __enter__(self):
        mode.outer.append(mode.light)
        mode.light = True
        return self

    def __exit__(self, *exc_info):
        mode.light = mode.outer.pop()


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
        if mode.light:
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
        return render(self.value)


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
            return f'{render(self.obj, _ATOM)}.{name}'
        return f'getattr({render(self.obj)}, {render(name)})'


class GetItem(Expr):
    """Subscription ``obj[key]``."""

    __slots__ = ('obj', 'key')

    def __init__(self, obj, key):
        self.obj = obj
        self.key = key

    def eval(self):
        return self.obj.eval()[eval(self.key)]

    def __str__(self):
        return f'{render(self.obj, _ATOM)}[{render_key(self.key)}]'


class Call(Expr):
    """Call ``fn(*args)`` of an expression that evaluates to a callable."""

    __slots__ = ('fn', 'args')

    def __init__(self, fn, args):
        self.fn = fn
        self.args = tuple(args)

    def eval(self):
        return self.fn.eval()(*[eval(arg) for arg in self.args])

    def __str__(self):
        args = ', '.join(render(arg) for arg in self.args)
        return f'{render(self.fn, _ATOM)}({args})'


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
        return (f'{render(self.left, left_min)} {self.symbol} '
                f'{render(self.right, right_min)}')


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
        return f'{self.symbol}{render(self.operand, self.priority)}'


_COMPARISONS = {  # symbol: (function, symbol of the negation)
    '==': (operator.eq, '!='), '!=': (operator.ne, '=='),
    '<': (operator.lt, '>='), '<=': (operator.le, '>'),
    '>': (operator.gt, '<='), '>=': (operator.ge, '<'),
    'in': (lambda value, choices: value in choices, 'not in'),
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
                str(self), f'{render(left)} {self.inv} {render(right)}')


def _compare(left, right, symbol):
    func, negation = _COMPARISONS[symbol]
    return BoolBinaryOperator(left, right, symbol, negation, func)


def is_in(value, choices):
    """The condition ``value in choices``, for :func:`expect`.

    Python's ``in`` cannot build an expression (it asks the container, and
    makes a bool of the answer), so ``x_type.dtype.kind in 'iu'`` fails on
    the expressions of symbolic mode; write
    ``is_in(x_type.dtype.kind, 'iu')``. A plain bool in light mode; in
    symbolic mode a comparison that fails showing ``Actual: f not in iu``.
    """
    if mode.light:
        return value in choices
    return _compare(_operand(value), _operand(choices), 'in')


def _holds_expr(values):
    """Whether ``values`` (nested lists and tuples too) hold an Expr."""
    return any(isinstance(value, Expr) or type(value) in (tuple, list)
               and _holds_expr(value) for value in values)


def render(value, min_priority=_COMPARISON):
    """Source text of a value; parenthesized if it binds looser than needed.
    """
    if isinstance(value, Expr):
        text = str(value)
        return f'({text})' if value.priority < min_priority else text
    if type(value) in (tuple, list) and _holds_expr(value):
        items = ', '.join(render(item) for item in value)
        if type(value) is list:
            return f'[{items}]'
        return f'({items},)' if len(value) == 1 else f'({items})'
    return str(value)


def render_key(key):
    """Source text of a subscription key (``x.shape[1:]``'s ``1:``)."""
    if type(key) is tuple:
        return ', '.join(render_key(part) for part in key)
    if type(key) is slice:
        text = ':'.join('' if bound is None else render(bound)
                        for bound in (key.start, key.stop))
        return text if key.step is None else f'{text}:{render(key.step)}'
    if key is Ellipsis:
        return '...'
    return repr(key) if isinstance(key, str) else render(key)


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
    if mode.light:
        return value
    return Variable(value, name)


def product(values):
    """The product of ``values``: :func:`prod` in light mode."""
    result = 1
    for value in values:
        result *= value
    return result


def prod(values):
    """Product of ``values`` (say, a shape), shown as ``prod(...)``.

    ``prod(x_type.shape) == prod(y_type.shape)`` checks that two inputs have
    the same number of elements.
    """
    if mode.light:
        return product(values)
    return Call(Variable(product, 'prod'), (values,))
