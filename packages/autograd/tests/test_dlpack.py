"""Variables exchange arrays with other libraries through DLPack, without
copies, and refuse NumPy's implicit conversion."""
import numpy
import pytest

import kusari.autograd as ka
from kusari.autograd import Variable


class Producer:
    """A DLPack producer that is not an array: as a tensor of another
    library looks to Kusari."""

    def __init__(self, array):
        self.wrapped = array

    def __dlpack__(self, **kwargs):
        return self.wrapped.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.wrapped.__dlpack_device__()


def test_numpy_reads_a_variable_without_copying():
    v = Variable(numpy.arange(6.0).reshape(2, 3))
    a = numpy.from_dlpack(v)
    assert numpy.shares_memory(a, v.array)
    assert v.__dlpack_device__() == (1, 0)


def test_a_variable_and_as_array_take_any_producer():
    source = numpy.arange(4, dtype=numpy.float32)
    v = Variable(Producer(source), grad=Producer(numpy.ones(4, 'f')))
    assert isinstance(v.array, numpy.ndarray)
    assert numpy.shares_memory(v.array, source)
    numpy.testing.assert_array_equal(v.grad, numpy.ones(4))
    array = ka.as_array(Producer(source))
    assert numpy.shares_memory(array, source)


def test_a_producer_in_other_memory_is_refused():
    class Elsewhere(Producer):
        def __dlpack_device__(self):
            return (4, 0)    # OpenCL
    with pytest.raises(TypeError, match='DLPack device type 4'):
        Variable(Elsewhere(numpy.zeros(2)))


def test_other_objects_are_still_refused():
    with pytest.raises(TypeError, match='Variable: expected a numpy'):
        Variable([1.0, 2.0])


@pytest.mark.parametrize('convert', [numpy.asarray, numpy.array,
                                     lambda v: numpy.asarray([v, v])])
def test_implicit_conversion_says_to_use_array(convert):
    v = Variable(numpy.zeros(3))
    with pytest.raises(TypeError, match=r'use variable\.array'):
        convert(v)


def test_0d_variables_stay_objects_in_numpy_arrays_as_in_chainer():
    # Chainer code collects reported values: numpy.asarray([loss, ...]).
    losses = [Variable(numpy.array(1.0, 'f')), Variable(numpy.array(3.0, 'f'))]
    held = numpy.asarray(losses)
    assert held.dtype == object and held.shape == (2,)
    assert held[0] is losses[0] and held.sum().array == 4.0


def test_numpy_operands_still_defer_to_the_variable():
    v = Variable(numpy.ones(3))
    for result in (numpy.float32(2) * v, numpy.ones(3) + v, v * numpy.ones(3)):
        assert isinstance(result, Variable)


def test_torch_round_trips_without_copying():
    torch = pytest.importorskip('torch')
    v = Variable(numpy.arange(6.0).reshape(2, 3))
    t = torch.from_dlpack(v)
    t[0, 0] = 42.0
    assert v.array[0, 0] == 42.0
    back = Variable(t)
    assert numpy.shares_memory(back.array, v.array)


@pytest.mark.gpu
def test_cuda_memory_becomes_a_cupy_array_without_copying():
    import cupy
    source = cupy.arange(4, dtype=cupy.float32)
    v = Variable(Producer(source))
    assert isinstance(v.array, cupy.ndarray)
    assert v.array.data.ptr == source.data.ptr
    assert cupy.from_dlpack(v).data.ptr == source.data.ptr
    assert v.__dlpack_device__()[0] == 2
