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
import functools
import inspect
import sys

import numpy

from kusari.array import lazy_cupy
from kusari.autograd.utils import _type_expressions
from kusari.autograd.utils._type_expressions import BinaryOperator  # NOQA
from kusari.autograd.utils._type_expressions import BoolBinaryOperator  # NOQA
from kusari.autograd.utils._type_expressions import Call  # NOQA
from kusari.autograd.utils._type_expressions import Constant  # NOQA
from kusari.autograd.utils._type_expressions import Expr  # NOQA
from kusari.autograd.utils._type_expressions import GetAttr  # NOQA
from kusari.autograd.utils._type_expressions import GetItem  # NOQA
from kusari.autograd.utils._type_expressions import InvalidType  # NOQA
from kusari.autograd.utils._type_expressions import LightMode  # NOQA
from kusari.autograd.utils._type_expressions import Testable  # NOQA
from kusari.autograd.utils._type_expressions import UnaryOperator  # NOQA
from kusari.autograd.utils._type_expressions import Variable  # NOQA
from kusari.autograd.utils._type_expressions import eval  # NOQA
from kusari.autograd.utils._type_expressions import in_light_mode  # NOQA
from kusari.autograd.utils._type_expressions import is_in  # NOQA
from kusari.autograd.utils._type_expressions import light_mode  # NOQA
from kusari.autograd.utils._type_expressions import make_variable  # NOQA
from kusari.autograd.utils._type_expressions import prod  # NOQA

_mode = _type_expressions.mode
_product = _type_expressions.product
_render_key = _type_expressions.render_key
_repr = _type_expressions.render


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
    for index, x in enumerate(in_data):
        if not (hasattr(x, 'shape') and hasattr(x, 'dtype')):
            raise not_an_array(_name_of(function_name), index, x)
    try:
        _run(check_type_forward, in_data, input_names, False)
    except InvalidType as error:
        _in_function(error, _name_of(function_name))
        raise
    except Exception as error:
        if not isinstance(light_error, InvalidType):
            raise
        # The inputs are wrong, but a condition cannot be built as an
        # expression (say, ``x.dtype.kind in 'iu'``, see is_in): still
        # say so, as an InvalidType naming the function.
        raise _in_function(InvalidType(
            'check_type_forward to hold',
            f'it does not, and cannot be shown in symbolic mode '
            f'({type(error).__name__}: {error})'),
            _name_of(function_name)) from error
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


class NotAnArrayError(TypeError):
    """A function was given None, a list, a Python scalar... where a
    Variable or an array must be (see :func:`not_an_array`).

    Attributes:
        value: What it was given.
    """

    def __init__(self, message, value=None):
        super().__init__(message)
        self.value = value


def not_an_array(function_name, index, value):
    """The TypeError of a function given ``value`` as its input ``index``
    (a position, or an argument's name) where a Variable or an array must
    be (None, a list, a Python scalar).
    """
    return note_public_caller(NotAnArrayError(
        f'{function_name}: input {index} must be a Variable or an array, got '
        f'{type(value).__name__}', value))


def array_expected(message, value):
    """The TypeError of a helper (``as_variable``, ``Variable``) given
    ``value`` where an array must be: a plain TypeError, as Chainer's,
    which a :func:`checks_inputs` function blames on its argument."""
    error = TypeError(message)
    error._kusari_not_an_array = type(value)
    return error


def checks_inputs(function):
    """Decorate a public function that reads its inputs (``x.shape``,
    ``x.ndim``) before it applies a FunctionNode.

    ``FunctionNode.apply`` names the function given None, a list or a
    Python scalar for an input; a function that reads the input first would
    fail with ``'NoneType' object has no attribute 'ndim'``. The decorated
    function fails with :func:`not_an_array`'s error instead; any other
    error that does not name the function gets a note that does (see
    :func:`note_public_caller`).

    Only a failing call does more than the call: the wrapper is compiled
    with the function's own signature (a ``*args, **kwargs`` wrapper
    costs four times as much to pass through).
    """
    name = function.__name__
    parameters = tuple(inspect.signature(function).parameters.values())
    header, passed, positional, keywords = [], [], [], []
    defaults = {}
    for parameter in parameters:
        text = parameter.name
        if parameter.kind is parameter.VAR_POSITIONAL:
            header.append(f'*{text}')
            passed.append(f'*{text}')
            positional.append(f'*{text}')
            continue
        if parameter.kind is parameter.VAR_KEYWORD:
            header.append(f'**{text}')
            passed.append(f'**{text}')
            keywords.append(f'**{text}')
            continue
        if parameter.kind is parameter.KEYWORD_ONLY and not any(
                part.startswith('*') for part in header):
            header.append('*')
        if parameter.default is not parameter.empty:
            defaults[text] = parameter.default
            header.append(f'{text}=_defaults[{text!r}]')
        else:
            header.append(text)
        if parameter.kind is parameter.KEYWORD_ONLY:
            passed.append(f'{text}={text}')
            keywords.append(f'{text!r}: {text}')
        else:
            passed.append(text)
            positional.append(text)
    source = (
        f'def {name}({", ".join(header)}):\n'
        f'    try:\n'
        f'        return _function({", ".join(passed)})\n'
        f'    except Exception as error:\n'
        f'        _failed(error, ({"".join(a + ", " for a in positional)}),'
        f' {{{", ".join(keywords)}}})\n'
        f'        raise\n')

    def failed(error, args, kwargs):
        if isinstance(error, (AttributeError, TypeError)):
            clear = bad_input_error(name, parameters, args, kwargs, error)
            if clear is not None:
                raise clear from error
        _note_function(error, name)

    namespace = {'_function': function, '_defaults': defaults,
                 '_failed': failed}
    exec(compile(source, f'<checks_inputs of {name}>', 'exec'), namespace)
    return functools.update_wrapper(namespace[name], function)


def bad_input_error(function_name, parameters, args, kwargs, error):
    """The :func:`not_an_array` error to raise instead of ``error``, an
    AttributeError or TypeError raised by a call, if it came from an
    argument that is not an array where arrays are expected; else None.

    Blamed is the first argument that is None, a list, a tuple or a Python
    scalar (or such an element of a list of arrays) of the type an
    :func:`array_expected` error reports, the object an AttributeError
    was raised for, or whose type ``error`` names in quotes, as Python's
    own errors do (``'NoneType' object has no attribute 'ndim'``); the
    checks of options (``axis must be an int, got float``) name theirs
    without, and keep their message. An argument that is its
    parameter's default (``b=None``) is never blamed. A NotAnArrayError of
    a function called inside is blamed on the argument that is the very
    object it names (for None: only if one argument is None), so that the
    message names the function the user called and its input.

    Args:
        function_name (str): The name the message gives the callee.
        parameters (tuple of inspect.Parameter): Its parameters, in order.
        args, kwargs: The arguments of the failed call.
        error: What the call raised.
    """
    value_type = getattr(error, '_kusari_not_an_array', None)
    if isinstance(error, NotAnArrayError):
        def blamed(suspect):
            return suspect is error.value
    elif value_type is not None:
        def blamed(suspect):
            return type(suspect) is value_type
    elif isinstance(error, AttributeError) and error.obj is not None:
        def blamed(suspect):  # (the very object read: surely the one)
            return error.obj is suspect
    else:
        quoted = str(error)

        def blamed(suspect):
            return f"'{type(suspect).__name__}'" in quoted
    # Inputs are named by position, keyword-only ones by name.
    by_name = {parameter.name: (
        parameter.name if parameter.kind is parameter.KEYWORD_ONLY else index,
        parameter) for index, parameter in enumerate(parameters)}
    positional = [parameter for parameter in parameters if parameter.kind in (
        parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)]
    named = [(index, positional[index] if index < len(positional) else None,
              value) for index, value in enumerate(args)]
    named += [(*by_name.get(key, (key, None)), value)
              for key, value in kwargs.items()]
    candidates = [
        (position, suspect) for index, parameter, value in named
        if parameter is None or value is not parameter.default
        for position, suspect in _suspects(index, value) if blamed(suspect)]
    if not candidates or isinstance(error, NotAnArrayError) and (
            error.value is None and len(candidates) > 1):
        return None  # (an inner function's input, named there)
    return not_an_array(function_name, *candidates[0])


def _suspects(index, value):
    """``(position, value)`` of what in argument ``index`` may be blamed."""
    if _is_array(value):
        return
    if isinstance(value, (list, tuple)) and any(map(_is_array, value)):
        for element, item in enumerate(value):
            if not _is_array(item):
                yield f'{index}[{element}]', item
    elif value is None or isinstance(value, (list, tuple, int, float,
                                             complex)):
        yield index, value


def _is_array(value):
    """Whether ``value`` is an array or a Variable (of an array)."""
    return hasattr(value, 'shape') and hasattr(value, 'dtype') and getattr(
        value, 'array', value) is not None


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
    """Name the function in the message of ``error``, and the public
    function called in a note (see :func:`note_public_caller`); return
    ``error``."""
    error.args = (f'Invalid operation is performed in: {function_name} '
                  f'(Forward)\n\n{error.args[0]}',)
    return note_public_caller(error)


# Modules of the function library (F): the engine imports none of them,
# it only recognizes their frames by name.
_LIBRARY = 'kusari.autograd.functions.'


def note_public_caller(error):
    """Add to ``error`` the note ``(raised in average())``, naming the
    outermost function of the library (``F.*``) being run, if the message
    does not name it already; return ``error``.

    A node's label names the node (``_ * _``), which may run inside the
    function the user called (``F.average``); the note names that one.
    The functions are the public module-level functions of the library's
    modules (a link's ``forward`` or a hook between them is looked
    through). The stack is read only when an error is being raised.
    """
    name = None
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if (not code.co_name.startswith('_')
                and frame.f_globals.get('__name__', '').startswith(_LIBRARY)
                and _code_of(frame.f_globals.get(code.co_name)) is code):
            name = code.co_name
        frame = frame.f_back
    if name is not None:
        _note_function(error, name)
    return error


def _note_function(error, name):
    """Note on ``error`` that it was raised in the function ``name``,
    unless its message names it; the note replaces that of a function
    inside (the outermost is the one the user called)."""
    if name in str(error) or not hasattr(error, 'add_note'):
        return
    notes = getattr(error, '__notes__', [])
    notes[:] = [note for note in notes if not (
        note.startswith('(raised in ') and note.endswith('())'))]
    error.add_note(f'(raised in {name}())')


def _code_of(function):
    """The code object of a (maybe decorated) function, else None."""
    return getattr(inspect.unwrap(function), '__code__', None) if callable(
        function) else None
