import numpy
import pytest

from kusari.array import backend, lazy_cupy

NO_CUDA = 'CUDA environment is not correctly set up'
needs_no_gpu = pytest.mark.skipif(
    lazy_cupy.cupy_or_none() is not None,
    reason='checks behaviour without GPU')


class _HasArray:
    """Stands for a Variable: an object with an ``array`` attribute."""

    def __init__(self, array):
        self.array = array


@pytest.mark.parametrize('spec', ['@numpy', numpy, -1, -3, '-1',
                                  backend.CpuDevice()],
                         ids=['string', 'module', 'minus_one', 'negative',
                              'minus_one_text', 'device'])
def test_get_device_cpu(spec):
    device = backend.get_device(spec)
    assert isinstance(device, backend.CpuDevice)
    assert device.xp is numpy and device.name == '@numpy'


def test_get_device_returns_device_objects_intact():
    device = backend.CpuDevice()
    assert backend.get_device(device) is device


@needs_no_gpu
@pytest.mark.parametrize('spec', ['@cupy:0', 0, 3, '@cupy:12', '0'])
def test_get_device_gpu_without_gpu(spec):
    with pytest.raises(RuntimeError, match=NO_CUDA):
        backend.get_device(spec)


@pytest.mark.parametrize('spec', ['@cupy:x', '@cupy:', '@cupy:-1', 'numpy',
                                  '', '@numpy:0'])
def test_get_device_bad_strings(spec):
    with pytest.raises(ValueError, match='get_device.*specifier'):
        backend.get_device(spec)


@pytest.mark.parametrize('spec', [None, True, 1.5, numpy.zeros(2), [0],
                                  ('@numpy',)],
                         ids=['none', 'bool', 'float', 'array', 'list',
                              'tuple'])
def test_get_device_bad_types(spec):
    with pytest.raises(TypeError, match='get_device: expected'):
        backend.get_device(spec)


@pytest.mark.parametrize('spec, backend_name', [
    ('@intel64', 'iDeep'), ('native:0', 'ChainerX'), ('cuda:0', 'ChainerX')])
def test_get_device_of_removed_backends(spec, backend_name):
    with pytest.raises(RuntimeError, match=f'{backend_name}.*not exist'):
        backend.get_device(spec)


@pytest.mark.parametrize('cls', [backend.Intel64Device,
                                 backend.ChainerxDevice])
def test_removed_backend_devices_cannot_be_made(cls):
    with pytest.raises(RuntimeError, match=f'{cls.__name__}.*@numpy'):
        cls()


def test_chainerx_conversions():
    with pytest.raises(RuntimeError, match='to_chx.*ChainerX'):
        backend.to_chx(numpy.zeros(1))
    x = numpy.zeros(1)
    assert backend.from_chx(x) is x


def test_cpu_device_identity():
    a, b = backend.CpuDevice(), backend.CpuDevice()
    assert a == b and not a != b and hash(a) == hash(b)
    assert str(a) == '@numpy' and repr(a) == '<CpuDevice (numpy)>'
    assert a != object()
    assert a.is_array_supported(numpy.zeros(1))
    assert not a.is_array_supported([0.0])


def test_cpu_send_array():
    device = backend.CpuDevice()
    x = numpy.zeros(3)
    assert device.send_array(x) is x
    scalar = device.send_array(numpy.float32(2))
    assert isinstance(scalar, numpy.ndarray) and scalar.dtype == numpy.float32
    for bad in ([1.0], 1.0, 'x'):
        with pytest.raises(TypeError, match='CpuDevice.send_array'):
            device.send_array(bad)


def test_cpu_send_nested_containers():
    x, y = numpy.zeros(2), numpy.ones(3)
    sent = backend.CpuDevice().send(
        {'a': [x, (y, None)], 'b': {'c': numpy.float64(1)}, 'd': None})
    assert sent['a'][0] is x and sent['a'][1][0] is y
    assert isinstance(sent['a'], list) and isinstance(sent['a'][1], tuple)
    assert sent['a'][1][1] is None and sent['d'] is None
    assert isinstance(sent['b']['c'], numpy.ndarray)
    with pytest.raises(TypeError, match='CpuDevice.send_array.*str'):
        backend.CpuDevice().send([x, 'y'])


def test_get_device_from_array():
    assert backend.get_device_from_array(numpy.zeros(1)) == \
        backend.CpuDevice()
    assert backend.get_device_from_array(_HasArray(numpy.zeros(1))) == \
        backend.CpuDevice()
    assert backend.get_device_from_array(1.0) == backend.CpuDevice()
    # Several arrays, as Chainer takes them: all on the host here.
    assert backend.get_device_from_array(numpy.zeros(1), numpy.ones(2)) == \
        backend.CpuDevice()
    assert backend.get_device_from_array() == backend.CpuDevice()


def test_get_array_module_on_host_objects():
    assert backend.get_array_module() is numpy
    assert backend.get_array_module(numpy.zeros(1), 2, None,
                                    _HasArray(numpy.zeros(1))) is numpy


def test_copyto():
    dst = numpy.zeros((2, 3), dtype=numpy.float32)
    backend.copyto(dst, numpy.arange(3.0))
    numpy.testing.assert_array_equal(dst, [[0, 1, 2], [0, 1, 2]])
    backend.copyto(dst, numpy.float64(7))
    numpy.testing.assert_array_equal(dst, 7)


def test_copyto_errors():
    with pytest.raises(TypeError, match='copyto: cannot copy into list'):
        backend.copyto([0.0], numpy.zeros(1))
    dst = numpy.zeros(2)
    with pytest.raises(TypeError):
        backend.copyto(dst, [1.0, 2.0])
    with pytest.raises(ValueError):
        backend.copyto(dst, numpy.ones(3))
    assert not dst.any()


def test_is_array_supported():
    assert backend.is_array_supported(numpy.zeros(1))
    assert not backend.is_array_supported(numpy.float32(1))
    assert not backend.is_array_supported([1])


def test_to_device():
    x = numpy.zeros(2)
    assert backend.to_device(None, x) is x
    assert backend.to_device('@numpy', x) is x
    sent = backend.to_device(-1, [x, {'y': x}])
    assert sent[0] is x and sent[1]['y'] is x
    with pytest.raises(ValueError, match='get_device'):
        backend.to_device('@gpu', x)


def test_using_device_and_device_contexts():
    with backend.using_device('@numpy'):
        with backend.CpuDevice() as device:
            assert device == backend.CpuDevice()
            with backend.CpuDevice():
                pass
    # The per-thread context stack is balanced again.
    assert backend._device_contexts() == []


def test_device_context_is_left_on_exception():
    with pytest.raises(KeyError):
        with backend.CpuDevice():
            raise KeyError('inside')
    assert backend._device_contexts() == []


@needs_no_gpu
def test_using_gpu_device_without_gpu():
    with pytest.raises(RuntimeError, match=NO_CUDA):
        with backend.using_device('@cupy:0'):
            pass


@pytest.mark.parametrize('device_id', [-1, '0', True, 1.0])
def test_gpu_device_from_bad_id(device_id):
    with pytest.raises(ValueError, match='GpuDevice.from_device_id'):
        backend.GpuDevice.from_device_id(device_id)


def test_gpu_device_from_host_array_is_none():
    assert backend.GpuDevice.from_array(numpy.zeros(1)) is None


@needs_no_gpu
def test_gpu_device_needs_cupy():
    with pytest.raises(RuntimeError, match=NO_CUDA):
        backend.GpuDevice(0)


@pytest.mark.gpu
def test_gpu_device():
    cupy = lazy_cupy.require_cupy()
    device = backend.get_device('@cupy:0')
    assert device == backend.get_device(0) == backend.get_device(
        cupy.cuda.Device(0))
    assert device.xp is cupy and str(device) == '@cupy:0'
    assert repr(device) == '<GpuDevice (cupy):0>'  # Chainer's form
    assert device != backend.CpuDevice()
    x = device.send(numpy.arange(3.0))
    assert isinstance(x, cupy.ndarray) and device.send_array(x) is x
    assert backend.get_device_from_array(x) == device
    assert backend.get_device_from_array(numpy.zeros(1), x) == device
    assert backend.get_array_module(numpy.zeros(1), x) is cupy
    assert backend.get_array_module(_HasArray(x)) is cupy
    with pytest.raises(TypeError, match='GpuDevice.send_array'):
        device.send_array([1.0])
    numpy.testing.assert_array_equal(backend.CpuDevice().send(x), [0, 1, 2])
    with backend.using_device(device):
        assert cupy.cuda.Device().id == 0


@pytest.mark.gpu
def test_gpu_copyto_casts_and_broadcasts():
    cupy = lazy_cupy.require_cupy()
    dst = cupy.zeros((2, 3), dtype=numpy.float32)
    backend.copyto(dst, numpy.arange(3.0))
    numpy.testing.assert_array_equal(dst.get(), [[0, 1, 2], [0, 1, 2]])
    host = numpy.zeros((2, 3))
    backend.copyto(host, dst)
    numpy.testing.assert_array_equal(host, dst.get())
    strided = cupy.zeros((4, 6))[:, ::2]
    backend.copyto(strided, numpy.ones((4, 3)))
    assert float(strided.sum()) == 12.0


def test_cpu_device_from_array():
    assert backend.CpuDevice.from_array(numpy.zeros(2)) == backend.CpuDevice()
    for value in (None, 1, (), numpy.float32(1)):
        assert backend.CpuDevice.from_array(value) is None


def _copied_and_unpickled(device):
    import copy
    import pickle
    return copy.deepcopy(device), pickle.loads(pickle.dumps(device))


def test_cpu_device_copies_and_pickles_as_itself():
    for copied in _copied_and_unpickled(backend.CpuDevice()):
        assert isinstance(copied, backend.CpuDevice)
        assert copied == backend.CpuDevice()


@pytest.mark.gpu
def test_gpu_device_copies_and_pickles_by_its_specifier():
    # The device holds the cupy module, which cannot be pickled: a deep
    # copy of a Link on the GPU failed on it.
    device = backend.get_device('@cupy:0')
    for copied in _copied_and_unpickled(device):
        assert copied == device and copied.xp is device.xp


def test_device_resident_to_cpu_is_deprecated_but_works():
    # Chainer v7 deprecates to_cpu / to_gpu / to_intel64 for to_device.
    from kusari.array import device_resident
    resident = device_resident.DeviceResident()
    with pytest.warns(DeprecationWarning,
                      match=r"DeviceResident.to_cpu is deprecated.*"
                            r"to_device\('@numpy'\)"):
        assert resident.to_cpu() is resident
    assert resident.device == backend.CpuDevice()
