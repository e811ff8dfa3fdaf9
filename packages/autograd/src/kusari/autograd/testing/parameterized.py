"""Parameterized test classes: one generated class per parameter set.

``@parameterize({'a': 1}, {'a': 2})`` on ``class TestFoo`` adds
``TestFoo_param_0_{a=1}`` and ``TestFoo_param_1_{a=2}`` to the module, each
a subclass of ``TestFoo`` with the parameters as class attributes, and
leaves ``TestFoo`` itself uncollected. ``product`` and ``product_dict`` build
the parameter lists; ``from_pytest_parameterize`` builds one from pytest's
``parametrize`` arguments.
"""
import functools
import itertools
import types

from kusari.autograd.testing import _bundle

# Longest repr of one parameter value, and of all of them, in a class name.
_VALUE_MAX_LENGTH = 100
_PARAMETERS_MAX_LENGTH = 5000


def parameterize(*params):
    """Class decorator generating one test class per parameter dict.

    Each generated class subclasses the decorated one, is named
    ``<Base>_param_<i>_{k1=v1, k2=v2}`` (keys sorted, long values shortened
    in the middle with ``...``), and has the parameters as class
    attributes; a plain function given as a value becomes a static-like
    attribute (called without ``self``). A failing test reports the
    parameters it ran with. Works on ``unittest.TestCase`` classes and plain
    pytest classes, and stacks with itself and ``inject_backend_tests``.

    Args:
        params: dicts mapping attribute names to values.
    """
    for param in params:
        if not isinstance(param, dict):
            raise TypeError(
                f'parameterize: each parameter set must be a dict, got '
                f'{param!r}')

    def generate(base):
        for index, param in enumerate(params):
            yield (_class_name(base.__name__, index, param),
                   _members(base, param),
                   functools.partial(_reporting_parameters, base, param))
    return _bundle.make_decorator('parameterize', generate)


def from_pytest_parameterize(names, values):
    """Parameter dicts from ``pytest.mark.parametrize``-style arguments.

    ``from_pytest_parameterize('a,b', [(1, 2), (3, 4)])`` is
    ``[{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]``; with one name each value
    is taken whole: ``('a', [1, 2])`` gives ``[{'a': 1}, {'a': 2}]``.
    """
    if not isinstance(names, str):
        raise TypeError(f'from_pytest_parameterize: names must be a '
                        f'comma-separated str, got {names!r}')
    if not isinstance(values, (list, tuple)):
        raise TypeError(f'from_pytest_parameterize: values must be a list '
                        f'or tuple, got {values!r}')
    keys = [name.strip() for name in names.split(',')]
    if len(keys) == 1:
        return [{keys[0]: value} for value in values]
    params = []
    for value in values:
        if not isinstance(value, (list, tuple)) or len(value) != len(keys):
            raise ValueError(
                f'from_pytest_parameterize: each value must be a tuple of '
                f'{len(keys)} (one per name of {names!r}), got {value!r}')
        params.append(dict(zip(keys, value)))
    return params


def parameterize_pytest(names, values):
    """:func:`parameterize` with ``pytest.mark.parametrize``-style
    arguments (see :func:`from_pytest_parameterize`)."""
    return parameterize(*from_pytest_parameterize(names, values))


def product(parameter):
    """The cartesian product of parameter choices, as a list of dicts.

    Given a dict of lists, ``{'a': [1, 2], 'b': [3]}``, returns every dict
    taking one value per key: ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``
    (keys in sorted order; the last key varies fastest). A key naming
    several parameters, ``'a,b': [(1, 2), (3, 4)]``, chooses them together,
    as in Chainer. Given a list of lists of dicts, returns the merged dict
    of every choice of one dict per list.
    """
    if isinstance(parameter, dict):
        keys = sorted(parameter)
        for key in keys:
            if not _is_choices(parameter[key]):
                raise TypeError(
                    f'product: the values of a dict parameter must be lists '
                    f'of choices; {key!r} has {parameter[key]!r}')
        return product_dict(*(_joint_choices(key, parameter[key])
                              for key in keys))
    if isinstance(parameter, list):
        if not all(isinstance(choices, list)
                   and all(isinstance(d, dict) for d in choices)
                   for choices in parameter):
            raise TypeError(
                f'product: a list parameter must be a list of lists of '
                f'dicts, got {parameter!r}')
        return product_dict(*parameter)
    raise TypeError(
        f'product: parameter must be a dict of lists or a list of lists of '
        f'dicts, got {type(parameter).__name__}')


def product_dict(*parameters):
    """Merge one dict from each list, for every choice: a list of dicts.

    ``product_dict([{'a': 1}, {'a': 2}], [{'b': 3}])`` is
    ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``; later dicts win on shared
    keys.
    """
    return [{key: value for d in dicts for key, value in d.items()}
            for dicts in itertools.product(*parameters)]


def _joint_choices(key, choices):
    """The choices of the dict-parameter entry ``key`` as dicts: one name,
    or several joined by commas, each choice then giving one value per
    name."""
    names = key.split(',')
    if len(names) == 1:
        return [{key: value} for value in choices]
    for value in choices:
        if not isinstance(value, (tuple, list)) or len(value) != len(names):
            raise ValueError(
                f'product: each choice of {key!r} must give {len(names)} '
                f'values, got {value!r}')
    return [dict(zip(names, value)) for value in choices]


def _is_choices(value):
    if isinstance(value, (str, bytes, dict)):
        return False
    try:
        iter(value)
    except TypeError:
        return False
    return True


def _shorten(text, max_length):
    if len(text) <= max_length:
        return text
    ellipsis = '...'
    head = (max_length - len(ellipsis)) // 2
    tail = max_length - len(ellipsis) - head
    return text[:head] + ellipsis + text[-tail:]


def _value_str(value):
    # Types (numpy.float32 above all) read best by their bare name.
    return value.__name__ if isinstance(value, type) else repr(value)


def _class_name(base_name, index, param):
    items = ', '.join(
        f'{key}={_shorten(_value_str(value), _VALUE_MAX_LENGTH)}'
        for key, value in sorted(param.items()))
    items = _shorten(items, _PARAMETERS_MAX_LENGTH)
    return f'{base_name}_param_{index}_{{{items}}}'


def _members(base, param):
    members = {key: _unbound(value) for key, value in param.items()}

    def __str__(self):
        return f'{base.__str__(self)}  parameter: {param}'
    members['__str__'] = __str__
    return members


def _unbound(value):
    # A function stored on a class would bind ``self``; the test expects to
    # call it as given.
    if isinstance(value, types.FunctionType):
        return staticmethod(value)
    return value


def _reporting_parameters(base, param, name, method):
    """Wrap a test method so that its failure lists the parameters."""
    @functools.wraps(method)
    def test(*args, **kwargs):
        try:
            return method(*args, **kwargs)
        except Exception as error:
            lines = [f'Parameterized test failed.\n\nBase test method: '
                     f'{base.__name__}.{name}\nTest parameters:']
            lines += [f'  {key}: {value}'
                      for key, value in sorted(param.items())]
            # Python 3.10 has no add_note; __notes__ is what it sets.
            error.__notes__ = [*getattr(error, '__notes__', ()),
                               '\n'.join(lines)]
            raise
    return test
