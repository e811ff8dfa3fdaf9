"""The pool of convolution patch matrices: reused once free, never while
anything refers to them."""
import numpy

from kusari.autograd.utils import _workspace
from kusari.autograd.utils import conv


def _patches(x):
    return conv.im2col(x, (3, 3), (1, 1), (1, 1))


def test_a_released_patch_matrix_is_reused():
    x = numpy.ones((4, 16, 32, 32), numpy.float32)  # patches of 2.4 MB
    col = _patches(x)
    address = col.ctypes.data
    del col
    assert _patches(x).ctypes.data == address


def test_a_held_patch_matrix_is_not_handed_out_again():
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((4, 16, 32, 32)).astype(numpy.float32)
    col = _patches(x)
    kept = col[:, :, 1].copy()
    view = col.reshape(4, -1)  # a view alone keeps the matrix in use
    del col
    other = _patches(2 * x)
    assert other.ctypes.data != view.ctypes.data
    numpy.testing.assert_array_equal(view.reshape(other.shape)[:, :, 1],
                                     kept)
    numpy.testing.assert_array_equal(other, 2 * view.reshape(other.shape))


def test_small_arrays_and_other_array_modules_are_not_pooled():
    assert _workspace.empty(numpy, (16,), numpy.float32).base is None
    assert _workspace.empty(numpy, (1 << 20,), numpy.float32).base is not None

    class OtherModule:
        @staticmethod
        def empty(shape, dtype):
            return 'other', shape, dtype

    assert _workspace.empty(OtherModule, (1 << 20,), numpy.float32) == (
        'other', (1 << 20,), numpy.dtype(numpy.float32))


def test_the_pool_keeps_at_most_its_limit(monkeypatch):
    monkeypatch.setattr(_workspace, '_buffers', {})
    monkeypatch.setattr(_workspace, '_pooled_bytes', 0)
    monkeypatch.setattr(_workspace, '_MAX_BYTES', 3 << 20)
    first = _workspace.empty(numpy, (1 << 19,), numpy.float32)   # 2 MiB
    # In use, the first leaves no room: the second is not pooled.
    assert _workspace.empty(numpy, (1 << 19,), numpy.float32).base is None
    del first
    # Free, a buffer of another size is dropped to make room.
    third = _workspace.empty(numpy, (3 << 18,), numpy.float32)   # 3 MiB
    assert third.base is not None
    assert _workspace._pooled_bytes == 3 << 20
    assert sorted(_workspace._buffers) == [2 << 20, 3 << 20]
    assert not _workspace._buffers[2 << 20]
