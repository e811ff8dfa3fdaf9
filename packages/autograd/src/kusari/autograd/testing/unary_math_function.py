"""A class decorator that tests a unary elementwise math function."""
import sys
import unittest
import warnings

import numpy

from kusari.array import backend
from kusari.autograd import gradient_check
from kusari.autograd import variable
from kusari.autograd.testing import array as array_module
from kusari.autograd.testing import attr
from kusari.autograd.testing import parameterized

_SHAPES = [(3, 2), ()]
_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def unary_math_function_unittest(func, func_expected=None,
                                 label_expected=None, make_data=None,
                                 is_linear=None, forward_options=None,
                                 backward_options=None,
                                 double_backward_options=None):
    """Decorator making a ``unittest.TestCase`` test a unary math function.

    The decorated class gets tests of forward (against ``func_expected``),
    backward and double backward, on CPU and GPU (GPU tests skip where no
    GPU is), and is parameterized over ``shape`` in ``(3, 2)`` and ``()``
    and ``dtype`` in float16, float32 and float64. The function must take
    one float array and return one of the same shape and dtype.

    Args:
        func: the function (or, for old code, an old-style ``Function``
            instance, whose ``label`` is tested too).
        func_expected: a NumPy function computing the expected output,
            called with ``dtype=``; by default the NumPy function of the
            same name as ``func``.
        label_expected (str): the expected label of an old-style Function;
            by default its class name in lower case.
        make_data: ``make_data(shape, dtype)`` returning the input, output
            gradient and input gradient-of-gradient arrays (for an old-style
            Function, only the first two); by default uniform in [-1, 1].
        is_linear: deprecated and unneeded (linear functions are tested as
            any other); when true, ``func(x) ** 2`` is checked in the double
            backward test instead.
        forward_options (dict): tolerances of ``assert_allclose``, updating
            the defaults chosen per dtype.
        backward_options (dict): arguments of ``check_backward``, likewise.
        double_backward_options (dict): arguments of
            ``check_double_backward``, likewise.

    Returns:
        A class decorator, which returns the ``parameterize`` result.
    """
    old_style = _is_old_style(func)
    name = type(func).__name__.lower() if old_style else func.__name__
    if func_expected is None:
        func_expected = getattr(numpy, name, None)
        if func_expected is None:
            raise ValueError(
                f'unary_math_function_unittest: NumPy has no function '
                f'{name!r} to compare {name} with; give func_expected')
    if label_expected is None:
        label_expected = name
    elif not old_style:
        raise ValueError(
            'unary_math_function_unittest: label_expected applies only to '
            'old-style Functions')
    if make_data is None:
        make_data = _make_data_default
    if is_linear is not None:
        warnings.warn(
            'unary_math_function_unittest: is_linear is deprecated; linear '
            'functions need no special treatment', DeprecationWarning,
            stacklevel=2)
    double_backward_func = _squared(func) if is_linear else func

    def setUp(self):
        data = make_data(self.shape, self.dtype)
        if old_style:
            self.x, self.gy = data[:2]
        else:
            self.x, self.gy, self.ggx = data
        half = self.dtype == numpy.float16
        self.forward_options = _options(
            {'atol': 1e-3, 'rtol': 1e-3} if half
            else {'atol': 1e-4, 'rtol': 1e-4}, forward_options)
        self.backward_options = _options(
            {'eps': 2 ** -4, 'atol': 2 ** -4, 'rtol': 2 ** -4,
             'dtype': numpy.float64} if half
            else {'atol': 1e-4, 'rtol': 1e-4, 'dtype': numpy.float64},
            backward_options)
        self.double_backward_options = _options(
            {'eps': 2 ** -4, 'atol': 2 ** -4, 'rtol': 2 ** -4,
             'dtype': numpy.float64} if half
            else {'atol': 1e-3, 'rtol': 1e-3, 'dtype': numpy.float64},
            double_backward_options)

    def check_forward(self, x_data):
        y = func(variable.Variable(x_data))
        assert y.array.dtype == x_data.dtype, (
            f'{name} returned {y.array.dtype} for a {x_data.dtype} input')
        y_expected = func_expected(_to_cpu(x_data), dtype=x_data.dtype)
        array_module.assert_allclose(y_expected, y.array,
                                     **self.forward_options)

    def check_backward(self, x_data, y_grad):
        gradient_check.check_backward(func, x_data, y_grad,
                                      **self.backward_options)

    def check_double_backward(self, x_data, y_grad, x_grad_grad):
        gradient_check.check_double_backward(
            double_backward_func, x_data, y_grad, x_grad_grad,
            **self.double_backward_options)

    def test_forward_cpu(self):
        self.check_forward(self.x)

    @attr.gpu
    def test_forward_gpu(self):
        self.check_forward(_to_gpu(self.x))

    def test_backward_cpu(self):
        self.check_backward(self.x, self.gy)

    @attr.gpu
    def test_backward_gpu(self):
        self.check_backward(_to_gpu(self.x), _to_gpu(self.gy))

    def test_double_backward_cpu(self):
        self.check_double_backward(self.x, self.gy, self.ggx)

    @attr.gpu
    def test_double_backward_gpu(self):
        self.check_double_backward(
            _to_gpu(self.x), _to_gpu(self.gy), _to_gpu(self.ggx))

    def test_label(self):
        assert func.label == label_expected, (
            f'label is {func.label!r}, expected {label_expected!r}')

    methods = [setUp, check_forward, check_backward, test_forward_cpu,
               test_forward_gpu, test_backward_cpu, test_backward_gpu]
    if old_style:
        methods.append(test_label)
    else:
        methods += [check_double_backward, test_double_backward_cpu,
                    test_double_backward_gpu]

    def decorator(klass):
        if not (isinstance(klass, type)
                and issubclass(klass, unittest.TestCase)):
            raise TypeError(
                f'unary_math_function_unittest: decorates a '
                f'unittest.TestCase subclass, got {klass!r}')
        for method in methods:
            setattr(klass, method.__name__, method)
        return parameterized.parameterize(*parameterized.product(
            {'shape': _SHAPES, 'dtype': _DTYPES}))(klass)
    return decorator


def _is_old_style(func):
    # No old-style Function can exist unless its module has been imported.
    function = sys.modules.get('kusari.autograd.function')
    return function is not None and isinstance(func, function.Function)


def _make_data_default(shape, dtype):
    return tuple(numpy.random.uniform(-1, 1, shape).astype(dtype)
                 for _ in range(3))


def _options(defaults, overrides):
    return {**defaults, **(overrides or {})}


def _squared(func):
    def squared(x):
        y = func(x)
        return y * y
    return squared


def _to_cpu(x):
    return backend.CpuDevice().send_array(x)


def _to_gpu(x):
    return backend.get_device(0).send_array(x)
