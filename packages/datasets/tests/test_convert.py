"""Converters: concat_examples, Converter and converter(), to_device,
call_converter and ConcatWithAsyncTransfer."""
import pickle

import numpy
import pytest
from hypothesis import given, strategies as st

from kusari.array import backend
from kusari.datasets import convert
from kusari.datasets.convert import (
    ConcatWithAsyncTransfer, Converter, concat_examples, converter,
    to_device)


def mnist_like(n):
    return [(numpy.full(784, i, numpy.float32), numpy.int32(i))
            for i in range(n)]


def test_tuples_become_tuple_of_arrays():
    x, t = concat_examples(mnist_like(5))
    assert x.shape == (5, 784) and x.dtype == numpy.float32
    assert t.dtype == numpy.int32
    numpy.testing.assert_array_equal(t, numpy.arange(5))
    numpy.testing.assert_array_equal(x[:, 0], numpy.arange(5))


def test_dicts_become_dict_of_arrays():
    batch = [{'x': numpy.arange(2) + i, 'y': float(i)} for i in range(3)]
    out = concat_examples(batch)
    assert list(out) == ['x', 'y']
    numpy.testing.assert_array_equal(out['x'], [[0, 1], [1, 2], [2, 3]])
    numpy.testing.assert_array_equal(out['y'], [0.0, 1.0, 2.0])


def test_arrays_and_scalars():
    out = concat_examples([numpy.ones((2, 3), numpy.float16)] * 4)
    assert out.shape == (4, 2, 3) and out.dtype == numpy.float16
    numpy.testing.assert_array_equal(concat_examples([1, 2, 3]), [1, 2, 3])
    numpy.testing.assert_array_equal(
        concat_examples([[1, 2], [3, 4]]), [[1, 2], [3, 4]])


def test_padding_scalar_tuple_and_dict():
    batch = [(numpy.arange(i + 1), numpy.ones((i + 1, 1))) for i in range(3)]
    x, y = concat_examples(batch, padding=-1)
    numpy.testing.assert_array_equal(
        x, [[0, -1, -1], [0, 1, -1], [0, 1, 2]])
    assert y.shape == (3, 3, 1) and y[0, 1, 0] == -1
    x, y = concat_examples(batch, padding=(9, 0))
    assert x[0, 2] == 9 and y[0, 2, 0] == 0
    out = concat_examples([{'a': [1]}, {'a': [1, 2]}], padding={'a': 7})
    numpy.testing.assert_array_equal(out['a'], [[1, 7], [1, 2]])


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3)),
                min_size=1, max_size=5), st.integers(-5, 5))
def test_padding_keeps_values_and_fills_the_rest(shapes, pad):
    arrays = [numpy.arange(r * c, dtype=numpy.int64).reshape(r, c) + 100
              for r, c in shapes]
    out = concat_examples(arrays, padding=pad)
    rows = max(r for r, _ in shapes)
    cols = max(c for _, c in shapes)
    assert out.shape == (len(arrays), rows, cols)
    for i, array in enumerate(arrays):
        r, c = array.shape
        numpy.testing.assert_array_equal(out[i, :r, :c], array)
        assert (out[i].sum() - array.sum()) == pad * (rows * cols - r * c)


def test_mismatched_shapes_name_the_position_and_shapes():
    batch = [(numpy.zeros(3), 0), (numpy.zeros(3), 1), (numpy.zeros(4), 2)]
    with pytest.raises(ValueError, match=r'tuple position 0 have different '
                       r'shapes: example 0 has \(3,\), example 2 has '
                       r'\(4,\); pass padding'):
        concat_examples(batch)
    with pytest.raises(ValueError, match="key 'x' have different shapes"):
        concat_examples([{'x': numpy.zeros(2)}, {'x': numpy.zeros((2, 1))}])
    with pytest.raises(ValueError, match='the examples have different'):
        concat_examples([[1, 2], [3]])


def test_bad_batches():
    with pytest.raises(ValueError, match='batch is empty'):
        concat_examples([])
    with pytest.raises(ValueError, match='a tuple of 2; one has no elem'):
        concat_examples([(1, 2), (3,)])
    with pytest.raises(ValueError, match=r"keys \['a'\]; one has no elem"):
        concat_examples([{'a': 1}, {'b': 2}])


@pytest.mark.parametrize('device', [None, -1, '@numpy', backend.CpuDevice()])
def test_devices_on_cpu(device):
    x, t = concat_examples(mnist_like(2), device)
    assert isinstance(x, numpy.ndarray) and x.shape == (2, 784)
    array = numpy.arange(3)
    assert to_device(device, array) is array


def test_to_device_rejects_unknown_specifier():
    with pytest.raises(ValueError, match='unknown device specifier'):
        to_device('@tpu', numpy.zeros(1))


def test_converter_decorator():
    @converter()
    def pairs(batch, device, scale=1):
        """Doubles."""
        return [(b * scale, device) for b in batch]

    assert isinstance(pairs, Converter)
    assert pairs.__name__ == 'pairs' and pairs.__doc__ == 'Doubles.'
    assert pairs([1, 2], None, scale=2) == [(2, None), (4, None)]
    assert isinstance(concat_examples, Converter)
    with pytest.raises(TypeError, match='expected a callable'):
        converter()(3)


def test_converter_base_is_abstract():
    with pytest.raises(NotImplementedError, match='__call__'):
        Converter()([], None)


def test_concat_examples_pickles_by_name():
    assert pickle.loads(pickle.dumps(concat_examples)) is concat_examples


def test_call_converter_passes_each_style_its_device():
    calls = []

    @converter()
    def new_style(batch, device):
        calls.append(device)

    def old_style(batch, device):
        calls.append(device)

    convert.call_converter(new_style, [1], -1)
    convert.call_converter(new_style, [1], None)
    convert.call_converter(old_style, [1], '@numpy')
    # As Chainer: an old-style converter gets None when there is no device.
    convert.call_converter(old_style, [1], None)
    assert calls == [backend.CpuDevice(), None, -1, None]


def test_decorated_converter_gets_a_device_for_any_specifier():
    @converter()
    def device_of(batch, device=None, scale=1):
        return device

    cpu = backend.CpuDevice()
    assert device_of([1], -1) == cpu and device_of([1], '@numpy') == cpu
    assert device_of([1], device=-1) == cpu
    assert device_of([1], None) is None and device_of([1]) is None
    assert device_of([1], cpu, 2) is cpu


def test_async_transfer_on_cpu_is_concat_examples():
    conv = ConcatWithAsyncTransfer()
    batch = mnist_like(3)
    for expected, got in zip(concat_examples(batch), conv(batch)):
        numpy.testing.assert_array_equal(expected, got)
    out = conv([numpy.arange(1), numpy.arange(2)], None, padding=0)
    numpy.testing.assert_array_equal(out, [[0, 0], [0, 1]])


def test_async_transfer_keeps_its_device():
    conv = ConcatWithAsyncTransfer()
    conv([1], -1)
    conv([1], '@numpy')
    with pytest.raises(ValueError, match='first called with @numpy'):
        conv([1], None)


def _cupy_or_skip():
    from kusari.array import lazy_cupy
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None:
        pytest.skip('CuPy with a GPU is not available')
    return cupy


@pytest.mark.gpu
def test_concat_examples_to_gpu():
    cupy = _cupy_or_skip()
    x, t = concat_examples(mnist_like(3), 0)
    assert isinstance(x, cupy.ndarray) and x.device.id == 0
    numpy.testing.assert_array_equal(t.get(), [0, 1, 2])
    x, t = concat_examples([(cupy.arange(2), 1)] * 2, padding=0)
    assert isinstance(x, cupy.ndarray)


@pytest.mark.gpu
@pytest.mark.parametrize('with_compute_stream', [False, True])
def test_async_transfer_to_gpu(with_compute_stream):
    cupy = _cupy_or_skip()
    compute = cupy.cuda.Stream() if with_compute_stream else None
    conv = ConcatWithAsyncTransfer(compute_stream=compute)
    for step in range(3):
        batch = [(numpy.full(5, step + i, numpy.float32),
                  {'k': numpy.int32(i)}['k']) for i in range(4)]
        x, t = conv(batch, 0)
        if compute is not None:
            compute.synchronize()
        assert isinstance(x, cupy.ndarray)
        numpy.testing.assert_array_equal(x.get(), concat_examples(batch)[0])
        numpy.testing.assert_array_equal(t.get(), [0, 1, 2, 3])
