"""Dropout: train and test behaviour, scaling, mask reuse, statistics."""
import math

import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import functions as F
from kusari.autograd import function_node
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable


def _five_sigma(p, n):
    """Five standard deviations of the fraction of n Bernoulli(p) draws."""
    return 5 * math.sqrt(p * (1 - p) / n)


def test_test_mode_passes_x_through():
    x = numpy.arange(6, dtype=numpy.float32)
    with configuration.using_config('train', False):
        y = F.dropout(x)
        y_masked, mask = F.dropout(x, return_mask=True)
    assert y.array is x
    assert y_masked.array is x and mask is None


@pytest.mark.parametrize('ratio', [0.2, 0.5, 0.8])
def test_drop_fraction_and_scaling(ratio):
    numpy.random.seed(0)
    n = 20000
    x = numpy.ones(n, numpy.float32)
    y, mask = F.dropout(x, ratio, return_mask=True)
    scale = numpy.float32(1 / (1 - ratio))
    assert set(numpy.unique(mask)) <= {0, scale}
    numpy.testing.assert_array_equal(y.array, x * mask)
    dropped = float((y.array == 0).mean())
    assert abs(dropped - ratio) < _five_sigma(ratio, n)
    # The scaling keeps the expected value.
    assert abs(float(y.array.mean()) - 1) < 5 * math.sqrt(
        ratio / (1 - ratio) / n)


def test_fixed_seed_reproduces_the_mask():
    x = numpy.ones((4, 5), numpy.float32)
    numpy.random.seed(3)
    first = F.dropout(x).array
    numpy.random.seed(3)
    numpy.testing.assert_array_equal(F.dropout(x).array, first)


def test_mask_reuse_is_deterministic_and_differentiable():
    rs = numpy.random.RandomState(1)
    x = Variable(rs.randn(3, 4))
    _, mask = F.dropout(x, 0.4, return_mask=True)
    y = F.dropout(x, 0.4, mask=mask)
    numpy.testing.assert_array_equal(
        F.dropout(x, 0.4, mask=mask).array, y.array)
    gy = rs.randn(3, 4)
    gx, = function_node.grad([F.sum(y * gy)], [x],
                             enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx.array, gy * mask)
    # The gradient is linear in gy with the same mask: its own gradient.
    gy_var = Variable(gy)
    gx2, = function_node.grad([F.sum(F.dropout(x, 0.4, mask=mask) *
                                     gy_var)], [x],
                              enable_double_backprop=True)
    ggy, = function_node.grad([F.sum(gx2 * gy)], [gy_var])
    numpy.testing.assert_array_equal(ggy.array, gy * mask)


def test_float16_mask_keeps_dtype():
    x = numpy.ones(10, numpy.float16)
    y, mask = F.dropout(x, 0.3, return_mask=True)
    assert y.dtype == mask.dtype == numpy.float16


@pytest.mark.parametrize('ratio', [-0.1, 1.0, 1.5])
def test_ratio_out_of_range(ratio):
    with pytest.raises(ValueError, match=r'ratio must be in \[0, 1\)'):
        F.dropout(numpy.ones(3, numpy.float32), ratio)


def test_train_argument_is_rejected():
    with pytest.raises(ValueError, match='using_config'):
        F.dropout(numpy.ones(3, numpy.float32), train=False)


@pytest.mark.parametrize('size', [2, 4])
def test_mask_of_another_shape_is_an_invalid_type(size):
    with pytest.raises(type_check.InvalidType, match='mask.shape'):
        F.dropout(numpy.ones(3, numpy.float32),
                  mask=numpy.ones(size, numpy.float32))


@pytest.mark.parametrize('dtype', [bool, numpy.int32])
def test_mask_and_x_must_be_float(dtype):
    with pytest.raises(type_check.InvalidType, match='mask.dtype'):
        F.dropout(numpy.ones(3, numpy.float32), mask=numpy.ones(3, dtype))
    with pytest.raises(type_check.InvalidType, match='x.dtype'):
        F.dropout(numpy.ones(3, dtype))


N_GPU = 20000


@pytest.mark.gpu
def test_gpu_dropout_statistics_and_mask():
    from kusari.array import backend
    device = backend.get_device('@cupy:0')
    x = device.send(numpy.ones(N_GPU, numpy.float32))
    y, mask = F.dropout(x, 0.25, return_mask=True)
    host_y = backend.CpuDevice().send(y.array)
    host_mask = backend.CpuDevice().send(mask)
    numpy.testing.assert_array_equal(host_y, host_mask)
    dropped = float((host_y == 0).mean())
    assert abs(dropped - 0.25) < _five_sigma(0.25, N_GPU)
    again = F.dropout(x, 0.25, mask=mask)
    numpy.testing.assert_array_equal(backend.CpuDevice().send(again.array),
                                     host_y)

