"""Every function of ``chainer.functions`` called wrongly, for any
Chainer-like API: the calls of the differential cases, with one input
replaced by a wrong dtype, a wrong number of dimensions, None, a list or a
Python scalar.

The good calls are not written again here: each function's call is taken
from the first differential case whose expression calls it (at any depth)
with arguments computed from the case's inputs alone. Every argument that
evaluates to an array or a Variable (or a list or tuple of them, whose
first element is then replaced) is an *input slot*; each bad call replaces
one slot by one wrong value.

Only NumPy is imported here, so the oracle's interpreter needs nothing but
Chainer.
"""
import ast
import builtins
import dataclasses

import numpy

import differential_cases as cases

# How a wrong value is made from the good array ``a`` of a slot.
WRONG_VALUES = {
    'bool': lambda a: a.astype(bool),
    'int': lambda a: a.astype(numpy.int32),
    'uint': lambda a: a.astype(numpy.uint8),
    'complex': lambda a: a.astype(numpy.complex128),
    'str': lambda a: a.astype(str),
    'object': lambda a: a.astype(object),
    'ndim+1': lambda a: a[numpy.newaxis],
    'ndim0': lambda a: numpy.array(a.reshape(-1)[0] if a.size else 0, a.dtype),
    'None': lambda a: None,
    'list': lambda a: a.tolist(),
    'scalar': lambda a: float(a.reshape(-1)[0]) if a.size else 1.0,
}
# Compared with Chainer: integer and bool inputs. Chainer checks no dtype
# in many functions and lets NumPy compute on complex, string or object
# arrays (or fail inside NumPy); Kusari refuses them naming the function.
COMPARED_KINDS = ('bool', 'int', 'uint')
_MIXED = ('the wrong input makes the inputs of mixed dtypes, which Kusari '
          'refuses ({}); Chainer 7.8.1 lets NumPy promote or cast')
# {(function, slot, kind): why Kusari refuses a dtype Chainer accepts}
KNOWN_DIFFERENCES = {
    **{(function, slot, kind): reason for kind in COMPARED_KINDS
       for (function, slot), reason in {
           ('batch_renormalization', 'running_var'): (
               'running statistics are updated in place with float values, '
               'which an integer array cannot hold'),
           ('gaussian', 'eps'): 'eps holds standard normal draws: floats',
           ('scatter_add', '0'): _MIXED.format('a and b of one dtype'),
           ('scatter_add', '2'): _MIXED.format('a and b of one dtype'),
           ('transpose_sequence', '0[0]'): _MIXED.format(
               'xs of one dtype'),
           ('zoneout', '0'): _MIXED.format('h and x of one dtype'),
           ('zoneout', '1'): _MIXED.format('h and x of one dtype'),
       }.items()},
    ('discriminative_margin_based_clustering_loss', '1', 'bool'): (
        'labels are cluster indices: integers'),
}

# Wrong values that stay arrays: a slot that held a Variable gets them
# wrapped in one, as a user's Variable of the wrong dtype would come.
ARRAY_KINDS = ('bool', 'int', 'uint', 'complex', 'str', 'object', 'ndim+1',
               'ndim0')


@dataclasses.dataclass(frozen=True)
class Call:
    """One function's good call: ``F.<function>(*args, **kwargs)`` with
    the argument expressions of ``source``, evaluated in case ``case``."""

    function: str
    case: str
    source: str


def calls():
    """``{function name: Call}``, one per function some differential case
    calls with arguments computed from its inputs alone."""
    found = {}
    for case in cases.CASES:
        expression, specs, _, _ = cases.case_parts(case)
        for node in ast.walk(ast.parse(expression, mode='eval')):
            function = _function_called(node)
            if function is None or function in found:
                continue
            if _free_names(node) <= set(specs) and not any(
                    isinstance(arg, ast.Starred) for arg in node.args):
                found[function] = Call(function, case, ast.unparse(node))
    return found


def _function_called(node):
    """``name`` of an ``F.name(...)`` call node, else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == 'F'):
        return node.func.attr
    return None


def _free_names(node):
    """The names ``node`` reads from the case's scope (not ``F``,
    ``numpy``, ``to_coo``, builtins, nor names bound by lambdas and
    comprehensions inside it)."""
    read, bound = set(), set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            (bound if isinstance(part.ctx, ast.Store) else read).add(
                part.id)
        elif isinstance(part, ast.arg):
            bound.add(part.arg)
    return read - bound - {'F', 'numpy', 'to_coo'} - set(vars(builtins))


def good_arguments(api, call):
    """``(args, kwargs)`` of ``call``, evaluated with the API (the case's
    differentiable inputs as Variables, drawn with a fixed seed)."""
    expression, specs, dtype, _ = cases.case_parts(call.case)
    arrays = cases.draw(numpy.random.RandomState(0), specs, dtype)
    variables = {name: api.Variable(arrays[name])
                 for name in cases.differentiable(specs)}
    scope = {'F': api.F, 'numpy': numpy, 'to_coo': api.to_coo,
             **arrays, **variables}
    node = ast.parse(call.source, mode='eval').body

    def value(argument):
        return eval(compile(ast.Expression(argument), call.case, 'eval'),
                    scope)
    args = [value(argument) for argument in node.args]
    kwargs = {keyword.arg: value(keyword.value) for keyword in node.keywords}
    return args, kwargs


def slots(api, args, kwargs):
    """The input slots of a call's arguments: ``(key, index)`` pairs, key
    an int (positional) or a str (keyword), index None or the position of
    the element replaced in a list or tuple argument."""
    found = []
    for key, argument in [*enumerate(args), *kwargs.items()]:
        if _is_input(api, argument):
            found.append((key, None))
        elif (isinstance(argument, (list, tuple)) and argument
              and _is_input(api, argument[0])):
            found.append((key, 0))
    return found


def _is_input(api, value):
    return isinstance(value, (numpy.ndarray, api.Variable))


def wrong_arguments(api, args, kwargs, slot, kind):
    """``(args, kwargs)`` with ``slot`` holding the wrong value ``kind``
    (a key of :data:`WRONG_VALUES`)."""
    args, kwargs = list(args), dict(kwargs)
    key, index = slot
    holder = args if isinstance(key, int) else kwargs
    good = holder[key] if index is None else holder[key][index]
    is_variable = isinstance(good, api.Variable)
    wrong = WRONG_VALUES[kind](good.array if is_variable else good)
    if is_variable and kind in ARRAY_KINDS:
        wrong = api.Variable(wrong)
    if index is None:
        holder[key] = wrong
    else:
        elements = list(holder[key])
        elements[index] = wrong
        holder[key] = type(holder[key])(elements)
    return args, kwargs


def slot_name(slot):
    """How a slot is named in test ids: ``0``, ``t``, ``1[0]``."""
    key, index = slot
    return f'{key}' if index is None else f'{key}[{index}]'


def bad_calls(api):
    """``[(call, slot, kind)]``: every wrong call of every function of
    :func:`calls`, one input slot holding one wrong value."""
    found = []
    for _, call in sorted(calls().items()):
        args, kwargs = good_arguments(api, call)
        found += [(call, slot, kind) for slot in slots(api, args, kwargs)
                  for kind in WRONG_VALUES]
    return found


def key(call, slot, kind):
    """The name of a wrong call in test ids and the oracle's results."""
    return f'{call.function}|{slot_name(slot)}|{kind}'


def run(api, call, slot, kind):
    """Make the wrong call; return what it raised, or None if it ran."""
    args, kwargs = good_arguments(api, call)
    args, kwargs = wrong_arguments(api, args, kwargs, slot, kind)
    numpy.random.seed(0)  # (the noise functions draw)
    try:
        with numpy.errstate(all='ignore'):
            getattr(api.F, call.function)(*args, **kwargs)
    except Exception as error:  # what the test judges
        return error
    return None
