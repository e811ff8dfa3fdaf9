import numpy
import pytest

from kusari.autograd import gradient_check
from kusari.autograd import functions as F


X = numpy.array([0.3, -0.2, 0.5])
W = numpy.array([0.5, -0.2, 0.3])
GY = numpy.array([1.0, -2.0, 0.5])


def _product(a, b):
    return a * b * b


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
