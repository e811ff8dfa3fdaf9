"""Gradients exactly at kinks, ties and bounds.

The records keep their values away from these points, where finite
differences cannot tell one one-sided derivative from the other. Which
one a function takes there is a convention; these are Chainer's (each
value was read off Chainer 7.8.1's gradients on 2026-11-26 or 27; ReLU's and
clip's are also documented here), for every dtype, on the array path and
on the graph path that ``enable_double_backprop=True`` builds.
"""
import numpy
import pytest

from harness.strategies import FLOAT_DTYPES
from kusari.array import configuration
from kusari.autograd import backward
from kusari.autograd import grad
from kusari.autograd import functions as F
from kusari.autograd.variable import Variable


def _in_test_mode(func):
    """``func`` called with ``config.train`` off."""
    def in_test_mode(x):
        with configuration.using_config('train', False):
            return func(x)
    return in_test_mode


# name: (function, inputs on the kinks, the gradient of sum(f(x))).
CONVENTIONS = {
    # "The gradient at 0 is 0."
    'relu': (F.relu, [-1.0, 0.0, 1.0], [0.0, 0.0, 1.0]),
    # And where x is NaN (so is y): none.
    'relu:nan': (F.relu, [numpy.nan, 1.0], [0.0, 1.0]),
    'relu6': (F.relu6, [0.0, 3.0, 6.0], [0.0, 1.0, 0.0]),
    'clipped_relu': (lambda x: F.clipped_relu(x, 1.0), [0.0, 0.5, 1.0],
                     [0.0, 1.0, 0.0]),
    # "The gradient is passed where x_min <= x <= x_max."
    'clip': (lambda x: F.clip(x, -1.0, 1.0), [-2.0, -1.0, 0.0, 1.0, 2.0],
             [0.0, 1.0, 1.0, 1.0, 0.0]),
    'clip:lower_only': (lambda x: F.clip(x, -1.0, None), [-2.0, -1.0, 3.0],
                        [0.0, 1.0, 1.0]),
    'clip:upper_only': (lambda x: F.clip(x, None, 1.0), [-3.0, 1.0, 2.0],
                        [1.0, 1.0, 0.0]),
    'hard_sigmoid': (F.hard_sigmoid, [-2.5, 0.0, 2.5], [0.0, 0.2, 0.0]),
    # x <= 0 takes the negative side: alpha exp(x) at 0.
    'elu': (lambda x: F.elu(x, 0.5), [0.0, 1.0], [0.5, 1.0]),
    'elu:negative_alpha': (lambda x: F.elu(x, -0.5), [0.0, 1.0],
                           [-0.5, 1.0]),
    'selu': (F.selu, [0.0, 1.0], [1.0507009873554805 * 1.6732632423543772,
                                  1.0507009873554805]),
    # x <= 0 takes the slope.
    'leaky_relu': (lambda x: F.leaky_relu(x, 0.25), [-1.0, 0.0, 1.0],
                   [0.25, 0.25, 1.0]),
    'leaky_relu:negative_slope': (lambda x: F.leaky_relu(x, -0.5),
                                  [-1.0, 0.0, 1.0], [-0.5, -0.5, 1.0]),
    # Where x is NaN, the gradient passes (Chainer scales where x <= 0).
    'leaky_relu:nan': (lambda x: F.leaky_relu(x, 0.25), [numpy.nan, 1.0],
                       [1.0, 1.0]),
    # x >= 0 passes the gradient: the slope only below 0.
    'prelu': (lambda x: F.prelu(x, x.xp.full(x.shape[1:2], 0.25, x.dtype)),
              [[-1.0, 0.0, 1.0]], [[0.25, 1.0, 1.0]]),
    'rrelu': (lambda x: F.rrelu(x, r=x.xp.full(x.shape, 0.25, x.dtype)),
              [-1.0, 0.0, 1.0], [0.25, 1.0, 1.0]),
    'rrelu:test_mode': (_in_test_mode(lambda x: F.rrelu(x, 0.25, 0.75)),
                        [-1.0, 0.0, 1.0], [0.5, 1.0, 1.0]),
    'absolute': (F.absolute, [-1.0, 0.0, 1.0], [-1.0, 0.0, 1.0]),
    # Every element equal to the maximum gets the gradient.
    'max:ties': (F.max, [1.0, 0.5, 1.0], [1.0, 0.0, 1.0]),
    # Grid points (x, y) on the centres of the zero pixels padding a 3 x 3
    # image (-2 and 2) get no gradient; one on a pixel of the image does.
    'spatial_transformer_sampler': (
        lambda grid: F.spatial_transformer_sampler(
            grid.xp.arange(1, 10, dtype=grid.dtype).reshape(1, 1, 3, 3),
            grid),
        [[[[-2.0, 2.0, -1.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, -2.0, 2.0]]]],
        [[[[0.0, 0.0, 1.0, 0.0, 0.0]], [[0.0, 0.0, 3.0, 0.0, 0.0]]]]),
    'min:ties': (F.min, [0.5, 1.0, 0.5], [1.0, 0.0, 1.0]),
}


@pytest.mark.parametrize('dtype', FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize('double_backprop', [False, True],
                         ids=['array_path', 'graph_path'])
@pytest.mark.parametrize('name', sorted(CONVENTIONS))
def test_gradient_at_kink(name, double_backprop, dtype):
    func, x, expected = CONVENTIONS[name]
    x = Variable(numpy.array(x, dtype=dtype), requires_grad=True)
    y = func(x)
    backward([y], [numpy.ones_like(y.array)],
             enable_double_backprop=double_backprop)
    assert x.grad.dtype == dtype
    numpy.testing.assert_array_equal(
        x.grad, numpy.array(expected, dtype=dtype),
        err_msg=f'{name}: the gradient at its kinks is not the convention')


# name: (function of (x, W), x on the kinks, W, the gradients of x, W and
# gy of sum(gx) + sum(gW), where gx, gW are the gradients of f(x, W)
# for gy = 1).
SECOND_ORDER = {
    # The second-order terms, like the first, take x < 0 as the slope
    # side: none at x = 0.
    'prelu': (F.prelu, [[-1.0, 0.0, 1.0]], [0.25, 0.25, 0.25],
              ([[1.0, 0.0, 0.0]], [1.0, 0.0, 0.0], [[-0.75, 1.0, 1.0]])),
}


@pytest.mark.parametrize('dtype', FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize('name', sorted(SECOND_ORDER))
def test_second_order_gradient_at_kink(name, dtype):
    func, x, W, expected = SECOND_ORDER[name]
    x, W = (Variable(numpy.array(a, dtype=dtype), requires_grad=True)
            for a in (x, W))
    y = func(x, W)
    gy = Variable(numpy.ones_like(y.array), requires_grad=True)
    gx, gW = grad([y], [x, W], grad_outputs=[gy],
                  enable_double_backprop=True)
    backward([F.sum(gx) + F.sum(gW)])
    for variable, value in zip((x, W, gy), expected):
        numpy.testing.assert_array_equal(
            variable.grad, numpy.array(value, dtype=dtype),
            err_msg=f'{name}: the second-order gradient at its kinks is '
                    f'not the convention')
