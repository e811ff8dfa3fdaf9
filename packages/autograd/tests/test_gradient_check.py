import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import gradient_check
from kusari.autograd.function import Function
from kusari.autograd import functions as F


X = numpy.array([0.3, -0.2, 0.5])
W = numpy.array([0.5, -0.2, 0.3])
GY = numpy.array([1.0, -2.0, 0.5])


def _product(a, b):
    return a * b * b


def test_double_backward_with_an_output_gradient_of_none():
    """A None output gradient (FunctionTestCase gives one for an output
    it leaves out) is no input of the check and contributes nothing."""
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 4))

    def f(x):
        a, b = F.split_axis(x, [1], 1)
        return a * a, b * b * b

    gy_b = numpy.random.RandomState(1).uniform(-1, 1, (2, 3))
    ggx = numpy.random.RandomState(2).uniform(-1, 1, (2, 4))
    gradient_check.check_double_backward(
        f, x, (None, gy_b), ggx, dtype=numpy.float64)


def test_no_grads_input_must_receive_no_gradient():
    # As in Chainer 7.8.1: an input marked in no_grads still takes part in
    # the graph, and a gradient reaching it fails the check.
    gradient_check.check_backward(_product, (X, W), GY)
    with pytest.raises(RuntimeError, match='no_grads'):
        gradient_check.check_backward(_product, (X, W), GY,
                                      no_grads=[False, True])


def test_no_grads_input_without_gradient_passes():
    def scale(a, b):
        return a * b.array  # b enters as a constant

    gradient_check.check_backward(scale, (X, W), GY,
                                  no_grads=[False, True])


def test_int_inputs_are_skipped_by_default():
    gradient_check.check_backward(
        lambda a, t: F.select_item(a, t),
        (numpy.arange(6.0).reshape(2, 3), numpy.array([0, 2], 'i')),
        numpy.ones(2))


def test_direction_is_a_unit_vector_with_no_tiny_component():
    # Chainer's rule: one Gaussian draw, 99 % of the squared norm from it
    # and 1 % spread evenly.
    seen = []

    def record(a, b):
        seen.append((a.array.copy(), b.array.copy()))
        return a * b

    numpy.random.seed(3)
    gradient_check.check_backward(record, (X, W), GY, eps=1e-3,
                                  dtype=numpy.float64)
    numpy.random.seed(3)
    draw = numpy.random.normal(size=6)
    squares = draw ** 2
    unit = numpy.copysign(
        numpy.sqrt(0.99 * squares / squares.sum() + 0.01 / 6), draw)
    minus = numpy.concatenate(seen[1])
    numpy.testing.assert_allclose(
        minus, numpy.concatenate([X, W]) - 1e-3 * unit, rtol=1e-12)
    assert abs(numpy.linalg.norm(unit) - 1) < 1e-12
    assert (abs(unit) >= 0.1 / numpy.sqrt(6)).all()


def test_the_function_meets_the_inputs_as_given():
    flags = []

    def record(a):
        flags.append(a.array.flags.c_contiguous)
        return a * a

    x = numpy.arange(12.0).reshape(3, 4)[:, ::2]
    gradient_check.check_backward(record, (x,), numpy.ones((3, 2)))
    assert flags[0] is False


def _numerical_grad_of_abs_around(kink):
    x = numpy.zeros(1)
    return gradient_check.numerical_grad(
        lambda: (abs(x - kink),), (x,), (numpy.ones(1),), eps=1e-3,
        detect_nondifferentiable=True)


def test_nondifferentiable_points_are_looked_for_within_eps():
    # As Chainer: one-sided derivatives from steps of eps/2 and eps, so a
    # kink 1.5 eps away goes unnoticed and one eps/2 away does not.
    _numerical_grad_of_abs_around(0.0015)
    with pytest.raises(gradient_check.NondifferentiableError):
        _numerical_grad_of_abs_around(0.0005)


def test_params_may_be_one_parameter_shaped_by_the_first_call():
    # As in Chainer: params is a Variable or a sequence of them, and a
    # lazy parameter is read after func has run once (and shaped it).
    from kusari.autograd import Parameter
    beta = Parameter(0.5)

    def swish_like(x):
        if beta.array is None:
            beta.initialize(x.shape)
        return x * beta

    x, gy = X.astype(numpy.float32), GY.astype(numpy.float32)
    gradient_check.check_backward(swish_like, x, gy, beta, atol=1e-3,
                                  rtol=1e-3)
    assert beta.shape == X.shape

    def wrong(x):
        return x * beta.array + beta * 0  # beta's gradient is lost
    with pytest.raises(AssertionError):
        gradient_check.check_backward(wrong, x, gy, beta, atol=1e-3,
                                      rtol=1e-3)
def _detects(func, x, eps):
    x = numpy.array([x], numpy.float32)
    try:
        gradient_check.numerical_grad(
            lambda: (func(x),), (x,), (numpy.ones(1, numpy.float32),),
            eps=eps, detect_nondifferentiable=True)
    except gradient_check.NondifferentiableError:
        return True
    return False


def test_nondifferentiable_points_as_chainer_finds_them():
    def cubic(x):
        return -3 * x ** 3 + 2 * x ** 2 + 1

    def nan_between(x):
        y = numpy.ones_like(x)
        y[(-1 < x) & (x < 1)] = numpy.nan
        return y

    # A quadratic fits a cubic well on a small step only.
    assert not _detects(cubic, 0., 1e-3) and _detects(cubic, 0., 0.1)
    assert _detects(abs, 0., 1e-3) and not _detects(abs, 1., 1e-3)
    with numpy.errstate(all='ignore'):
        assert not _detects(numpy.log, -10., 1e-3)  # NaN all around
    assert not _detects(nan_between, 0., 1e-3)
    assert _detects(nan_between, 1., 1e-3)  # finite on one side only


def test_numerical_grad_of_scalars_and_bad_eps():
    x = numpy.array(0.5, numpy.float32)
    gx, = gradient_check.numerical_grad(lambda: (1,), (x,), (0,))
    assert gx == 0
    gx, = gradient_check.numerical_grad(lambda: (x,), (x,), (1,))
    numpy.testing.assert_allclose(gx, 1, rtol=1e-4)
    with pytest.raises(AssertionError, match='eps'):
        gradient_check.numerical_grad(lambda: (x,), (x,), (1,), eps=0)


def test_check_backward_none_y_grad_gives_no_gradient():
    class NoneIsZero(Function):
        def forward(self, inputs):
            return inputs

        def backward(self, inputs, grads):
            return tuple(numpy.zeros_like(x) if g is None else g
                         for x, g in zip(inputs, grads))

    x = numpy.arange(1, dtype=numpy.float32)
    g = numpy.ones(1, numpy.float32)
    for y_grad in ((g, None), (None, g)):
        gradient_check.check_backward(
            lambda a, b: NoneIsZero()(a, b), (x, x.copy()), y_grad,
            atol=1e-2, rtol=1e-2)


def test_check_double_backward_takes_one_param():
    param = Variable(numpy.ones((2, 3), numpy.float32))
    ones = numpy.ones((2, 3), numpy.float32)
    gradient_check.check_double_backward(
        lambda x: x * param, ones, ones, ones, param, ones, atol=1e-3,
        rtol=1e-3)


def test_none_inputs_and_none_output_gradients():
    # A None input reaches func as None (an absent optional input); an
    # output whose y_grad is None gives no gradient, in double backward too.
    x = numpy.array([0.3, -0.2], numpy.float32)
    ones = numpy.ones(2, numpy.float32)

    def f(a, b=None):
        assert b is None
        return a * a, a * 3

    gradient_check.check_backward(f, (x, None), (ones, None), atol=1e-3,
                                  rtol=1e-3)
    gradient_check.check_double_backward(
        lambda a: f(a), x, (ones, None), ones, atol=1e-3, rtol=1e-3)
