"""The checks that function and link test cases share: the test data
their methods give, what forward returns, comparisons of outputs, and
failures raised as :class:`FunctionTestError`."""
import contextlib
import io

import numpy

from kusari.array import backend
from kusari.autograd import gradient_check
from kusari.autograd import variable
from kusari.autograd.testing import array as array_module

# Bounds the redraws of ``dodge_nondifferentiable``, so that inputs that
# always hit a non-differentiable point fail instead of looping forever.
MAX_DODGES = 100


class FunctionTestError(AssertionError):
    """The function under test is implemented incorrectly."""


def fail(message, cause=None):
    """Raise FunctionTestError with ``message`` (and what caused it)."""
    if cause is not None:
        message = (f'{message}\n\n(caused by)\n'
                   f'{type(cause).__name__}: {cause}\n')
    raise FunctionTestError(message) from cause


def dodging(case, check):
    """Run ``check()``; where ``case.dodge_nondifferentiable``, run it
    again (the inputs are drawn anew each time) while it hits a
    non-differentiable point, at most ``MAX_DODGES`` times."""
    if not case.dodge_nondifferentiable:
        check()
        return
    for _ in range(MAX_DODGES):
        try:
            check()
            return
        except gradient_check.NondifferentiableError:
            continue
    fail(f'{case.test_name}: {MAX_DODGES} sets of inputs in a row hit '
         f'a non-differentiable point; make generate_inputs() keep '
         f'away from such points')


def uniform_like(arrays):
    """Arrays of the shapes and dtypes of ``arrays``, uniform in [-1, 1)."""
    return tuple(numpy.random.uniform(-1, 1, a.shape).astype(a.dtype)
                 for a in arrays)


def as_noncontiguous(a):
    """A copy of ``a`` that is a strided view (every other element of an
    array twice its size in each dimension); arrays of at most one element
    cannot be non-contiguous and are returned as they are."""
    if a is None or a.size <= 1:
        return a
    xp = backend.get_array_module(a)
    every_other = (slice(None, None, 2),) * a.ndim
    with backend.using_device(backend.get_device_from_array(a)):
        padded = xp.empty(tuple(2 * n for n in a.shape), dtype=a.dtype)
        padded[every_other] = a
        return padded[every_other]


def _format_array_props(arrays):
    return ', '.join('None' if a is None else f'{a.shape}:{a.dtype.name}'
                     for a in arrays)


def checked_arrays(arrays, method_name):
    """A method generating test data must give a tuple of NumPy arrays."""
    if not isinstance(arrays, tuple):
        raise TypeError(
            f'{method_name}() must return a tuple, not '
            f'{type(arrays).__name__}')
    if not all(a is None or isinstance(a, numpy.ndarray) for a in arrays):
        raise TypeError(
            f'{method_name}() must return a tuple of NumPy arrays or None.'
            f'\nActual: {tuple(type(a).__name__ for a in arrays)}')
    return arrays


def check_variables(outputs, device):
    """Fail unless forward() gave a tuple of Variables on ``device``."""
    if not isinstance(outputs, tuple):
        fail(f'forward() must return a tuple, not '
             f'{type(outputs).__name__}.')
    if not all(isinstance(y, variable.Variable) for y in outputs):
        fail('forward() must return a tuple of Variables.\nActual: '
             + ', '.join(type(y).__name__ for y in outputs))
    if not all(device.is_array_supported(y.array) for y in outputs):
        fail(f'forward() must return a tuple of Variables of arrays on '
             f'device {device}.\nActual: '
             + ', '.join(type(y.array).__name__ for y in outputs))


def check_inputs_unchanged(inputs_before, inputs):
    """Fail, naming them, if forward() modified some of its inputs."""
    modified = []
    for i, (before, after) in enumerate(zip(inputs_before, inputs)):
        try:
            array_module.assert_allclose(before, after, atol=0, rtol=0)
        except AssertionError:
            modified.append(i)
    if not modified:
        return
    out = io.StringIO()
    out.write(f'Input arrays have been modified during forward.\n'
              f'Indices of modified inputs: '
              f'{", ".join(map(str, modified))}\n'
              f'Input array shapes and dtypes: '
              f'{_format_array_props(inputs)}\n')
    for i in modified:
        out.write(f'\nInput[{i}]:\nOriginal:\n{inputs_before[i]}\n'
                  f'After forward:\n{inputs[i]}\n')
    fail(out.getvalue())


def check_outputs_equal(expected, actual, func_name, **options):
    """Fail unless the arrays agree in number, shapes, dtypes and values
    (compared by ``assert_allclose(**options)``)."""
    details = None
    if len(expected) != len(actual):
        # (actual, expected), as Chainer's message orders them.
        message = (f'Number of outputs of {func_name}() ({len(actual)}, '
                   f'{len(expected)}) does not match')
    elif any(y.shape != e.shape or y.dtype != e.dtype
             for y, e in zip(actual, expected)):
        message = f'Shapes and/or dtypes of {func_name}() do not match'
    else:
        errors = []
        for i, (y, e) in enumerate(zip(actual, expected)):
            try:
                array_module.assert_allclose(y, e, **options)
            except AssertionError as error:
                errors.append((i, error))
        if not errors:
            return
        message = (f'Outputs of {func_name}() do not match the expected '
                   f'values.\nIndices of outputs that do not match: '
                   f'{", ".join(str(i) for i, _ in errors)}')
        details = ''.join(f'Error details of output [{i}]:\n{error}\n'
                          for i, error in errors)
    message = (f'{message}\n'
               f'Expected shapes and dtypes: {_format_array_props(expected)}'
               f'\nActual shapes and dtypes:   {_format_array_props(actual)}'
               f'\n')
    if details is not None:
        message += f'\n\n{details}'
    fail(message)


@contextlib.contextmanager
def failing_as(message):
    """Turn an AssertionError of the block into a FunctionTestError."""
    try:
        yield
    except AssertionError as error:
        fail(message, error)
