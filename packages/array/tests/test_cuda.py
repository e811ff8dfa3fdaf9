import contextlib
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

from kusari.array import cuda, lazy_cupy

NO_CUDA = 'CUDA environment is not correctly set up'
needs_no_gpu = pytest.mark.skipif(
    lazy_cupy.cupy_or_none() is not None,
    reason='checks behaviour without GPU')


def _run_python(code, tmp_path, fake_cupy):
    """Run ``code`` in a fresh interpreter; with ``fake_cupy`` an importable
    module named cupy shadows any real one, so an import would show."""
    env = None
    if fake_cupy:
        (tmp_path / 'cupy').mkdir()
        (tmp_path / 'cupy' / '__init__.py').write_text('FAKE = True\n')
        env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = subprocess.run(
        [sys.executable, '-c', textwrap.dedent(code)], env=env,
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_import_and_cpu_use_do_not_import_cupy(tmp_path):
    out = _run_python('''
        import sys
        import numpy
        from kusari.array import cuda, initializers
        x = numpy.ones(3, dtype=numpy.float32)
        cuda.to_cpu([x, None])
        cuda.get_array_module(x)
        cuda.get_device_from_array(x)
        cuda.get_device_from_id(None)
        cuda.fuse()(lambda a, b: a * b)(x, x)
        cuda.memoize(for_each_device=True)(lambda a: a)(1)
        initializers.generate_array(initializers.HeNormal(), (2, 3), numpy)
        print('cupy' in sys.modules)
        print(cuda.available, 'cupy' in sys.modules)
    ''', tmp_path, fake_cupy=True)
    # The fake CuPy has no CUDA runtime, so it is imported but unusable.
    assert out.split() == ['False', 'False', 'True']


def test_lazy_names_without_cupy(tmp_path):
    out = _run_python('''
        import numpy
        from kusari.array import cuda
        print(cuda.available, cuda.cupy is numpy, cuda.cudnn_enabled)
        print(isinstance(numpy.ones(1), cuda.ndarray), cuda.ndarray.__name__)
        print(cuda.cupyx is None, cuda.Device.__name__, cuda.Stream.__name__)
        try:
            cuda.check_cuda_available()
        except RuntimeError as e:
            print(str(e).startswith('CUDA environment is not correctly'))
    ''', tmp_path, fake_cupy=True)
    assert out.split() == ['False', 'False', 'False', 'False', 'ndarray',
                           'False', 'Device', 'Stream', 'True']


def test_unknown_attribute():
    with pytest.raises(AttributeError, match='cuda.*no attribute.*nope'):
        cuda.nope


def test_cudnn_is_never_enabled():
    assert cuda.cudnn_enabled is False


def test_get_array_module_delegates_to_backend():
    class HasArray:
        array = numpy.zeros(2)

    assert cuda.get_array_module(numpy.zeros(2), 1.0, HasArray()) is numpy
    assert cuda.get_array_module() is numpy


def test_to_cpu():
    x = numpy.arange(3.0)
    assert cuda.to_cpu(x) is x
    assert cuda.to_cpu(None) is None
    scalar = cuda.to_cpu(numpy.float32(2))
    assert isinstance(scalar, numpy.ndarray) and scalar.dtype == numpy.float32
    assert cuda.to_cpu(3.5).shape == ()
    converted = cuda.to_cpu([x, (x, None), 1])
    assert isinstance(converted, list) and isinstance(converted[1], tuple)
    assert converted[0] is x and converted[1][0] is x
    assert converted[1][1] is None and converted[2] == 1


@pytest.mark.parametrize('value', ['abc', object(), b'raw'])
def test_to_cpu_rejects_non_arrays(value):
    with pytest.raises(TypeError, match='to_cpu: expected.*got'):
        cuda.to_cpu(value)


def test_to_cpu_stream_is_deprecated():
    with pytest.warns(DeprecationWarning, match='stream.*to_cpu'):
        cuda.to_cpu(numpy.zeros(1), stream=contextlib.nullcontext())


def test_dummy_device():
    device = cuda.DummyDevice
    assert device.id == -1 and int(device) == -1
    with device as entered:
        assert entered is device
    device.use()
    device.synchronize()
    assert device == cuda.DummyDeviceType()
    assert device != -1
    assert repr(device) == '<DummyDevice>'


def test_devices_of_host_objects_are_dummy():
    assert cuda.get_device_from_id(None) is cuda.DummyDevice
    assert cuda.get_device_from_id(-1) is cuda.DummyDevice
    assert cuda.get_device_from_array(numpy.zeros(1)) is cuda.DummyDevice
    assert cuda.get_device_from_array() is cuda.DummyDevice
    with pytest.warns(DeprecationWarning, match='get_device is deprecated'):
        assert cuda.get_device(numpy.zeros(1), None) is cuda.DummyDevice
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(-1) is cuda.DummyDevice


@pytest.mark.parametrize('device_id', ['0', 1.0, True])
def test_get_device_from_id_rejects_non_ints(device_id):
    with pytest.raises(TypeError, match='get_device_from_id.*int'):
        cuda.get_device_from_id(device_id)


@needs_no_gpu
@pytest.mark.parametrize('call', [
    lambda: cuda.check_cuda_available(),
    lambda: cuda.get_device_from_id(0),
    lambda: cuda.get_device_or_current(None),
    lambda: cuda.to_gpu(numpy.zeros(2)),
    lambda: cuda.to_gpu(numpy.zeros(2), device=1),
    lambda: cuda.copy(numpy.zeros(2)),
    lambda: cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel'),
    lambda: cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'sum_k'),
    lambda: cuda.raw('extern "C" __global__ void k() {}', 'k'),
], ids=['check', 'from_id', 'or_current', 'to_gpu', 'to_gpu_id', 'copy',
        'elementwise', 'reduce', 'raw'])
def test_gpu_functions_fail_clearly_without_gpu(call):
    with pytest.raises(RuntimeError, match=NO_CUDA):
        call()
    # A failure is not memoized: the next call fails again the same way.
    with pytest.raises(RuntimeError, match=NO_CUDA):
        call()


@needs_no_gpu
def test_deprecated_get_device_of_an_id_needs_a_gpu():
    with pytest.warns(DeprecationWarning), \
            pytest.raises(RuntimeError, match=NO_CUDA):
        cuda.get_device(0)


@pytest.mark.parametrize('for_each_device', [False, True])
def test_memoize(for_each_device):
    calls = []

    @cuda.memoize(for_each_device=for_each_device)
    def square(x, offset=0):
        """Square x."""
        calls.append((x, offset))
        return x * x + offset

    assert square.__name__ == 'square' and square.__doc__ == 'Square x.'
    assert square(3) == 9 and square(3) == 9
    assert square(3, offset=1) == 10 and square(3, offset=1) == 10
    assert square(4) == 16
    assert calls == [(3, 0), (3, 1), (4, 0)]
    cuda.clear_memo()
    assert square(3) == 9
    assert calls[-1] == (3, 0) and len(calls) == 4


def test_memoize_keyword_order_does_not_matter():
    calls = []

    @cuda.memoize()
    def pair(a=0, b=0):
        calls.append((a, b))
        return (a, b)

    assert pair(a=1, b=2) == pair(b=2, a=1) == (1, 2)
    assert len(calls) == 1


def test_memoize_needs_hashable_arguments():
    @cuda.memoize()
    def identity(x):
        return x

    with pytest.raises(TypeError, match='unhashable'):
        identity([1])


def test_workspace_size():
    assert cuda.get_max_workspace_size() == 8 * 1024 * 1024
    try:
        cuda.set_max_workspace_size(1024)
        assert cuda.get_max_workspace_size() == 1024
    finally:
        cuda.set_max_workspace_size(8 * 1024 * 1024)


@pytest.mark.parametrize('size', [-1, 1.5, '8', None])
def test_workspace_size_rejects_bad_sizes(size):
    with pytest.raises(ValueError, match='set_max_workspace_size'):
        cuda.set_max_workspace_size(size)
    assert cuda.get_max_workspace_size() == 8 * 1024 * 1024


def _squared_diff(x, y):
    return (x - y) * (x - y)


@pytest.mark.parametrize('decorate', [
    cuda.fuse, cuda.fuse(), cuda.fuse(kernel_name='squared_diff')],
    ids=['bare', 'called', 'kernel_name'])
def test_fuse_runs_plain_python_on_numpy(decorate):
    fused = decorate(_squared_diff)
    assert fused.__name__ == '_squared_diff'
    numpy.testing.assert_array_equal(
        fused(numpy.array([1.0, 4.0]), numpy.array([3.0, 1.0])), [4.0, 9.0])
    assert fused(5, 2) == 9


def test_fuse_rejects_positional_non_functions():
    with pytest.raises(TypeError, match='fuse: expected a function'):
        cuda.fuse(1)


@pytest.mark.gpu
def test_to_gpu_and_back():
    cupy = lazy_cupy.require_cupy()
    x = numpy.arange(6.0).reshape(2, 3)
    x_gpu = cuda.to_gpu(x)
    assert isinstance(x_gpu, cupy.ndarray)
    assert cuda.to_gpu(x_gpu) is x_gpu
    assert cuda.get_device_from_array(x_gpu) == x_gpu.device
    assert cuda.get_array_module(x_gpu) is cupy
    numpy.testing.assert_array_equal(cuda.to_cpu(x_gpu), x)
    as_list = cuda.to_gpu([x, None, numpy.float32(1)], device=0)
    assert isinstance(as_list, list) and as_list[1] is None
    assert as_list[2].shape == () and as_list[2].dtype == numpy.float32
    as_tuple = cuda.to_cpu((x_gpu, x_gpu))
    assert isinstance(as_tuple, tuple)
    numpy.testing.assert_array_equal(as_tuple[1], x)
    with pytest.raises(TypeError, match='to_gpu: expected'):
        cuda.to_gpu('abc')
    with pytest.raises(ValueError, match='to_gpu: invalid CUDA device'):
        cuda.to_gpu(x, device=-1)


@pytest.mark.gpu
def test_gpu_copy():
    cupy = lazy_cupy.require_cupy()
    x = cupy.arange(4.0)
    y = cuda.copy(x)
    assert y is not x and y.device == x.device
    cupy.testing.assert_array_equal(x, y)
    out = cupy.zeros(4)
    assert cuda.copy(x, out=out) is out
    cupy.testing.assert_array_equal(out, x)
    with pytest.raises(TypeError, match='copy: array'):
        cuda.copy(numpy.zeros(2))


@pytest.mark.gpu
def test_gpu_kernels_are_memoized():
    cupy = lazy_cupy.require_cupy()
    kernel = cuda.elementwise('T x, T y', 'T z', 'z = x * y + 1', 'muladd1')
    assert kernel is cuda.elementwise(
        'T x, T y', 'T z', 'z = x * y + 1', 'muladd1')
    x = cupy.arange(3, dtype=numpy.float32)
    cupy.testing.assert_allclose(kernel(x, x), x * x + 1)
    total = cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'total')
    assert float(total(x)) == 3.0
    raw = cuda.raw('''
        extern "C" __global__ void twice(float* x) {
            x[threadIdx.x] *= 2;
        }''', 'twice')
    assert raw is cuda.raw('''
        extern "C" __global__ void twice(float* x) {
            x[threadIdx.x] *= 2;
        }''', 'twice')
    raw((1,), (3,), (x,))
    cupy.testing.assert_allclose(x, [0, 2, 4])


@pytest.mark.gpu
def test_gpu_fuse():
    cupy = lazy_cupy.require_cupy()
    fused = cuda.fuse()(_squared_diff)
    x = cupy.array([1.0, 4.0])
    y = cupy.array([3.0, 1.0])
    cupy.testing.assert_allclose(fused(x, y), [4.0, 9.0])


@pytest.mark.gpu
def test_gpu_device_lookups():
    cupy = lazy_cupy.require_cupy()
    assert cuda.available is True and cuda.cupy is cupy
    assert cuda.get_device_from_id(0) == cupy.cuda.Device(0)
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(None, 0) == cupy.cuda.Device(0)


def test_unavailable_reason_says_why_cupy_is_unusable():
    reason = lazy_cupy.unavailable_reason()
    if lazy_cupy.cupy_or_none() is None:
        assert reason.startswith('CuPy is')
        with pytest.raises(RuntimeError, match=f'{NO_CUDA}: CuPy is'):
            lazy_cupy.require_cupy()
    else:
        assert reason == ''
