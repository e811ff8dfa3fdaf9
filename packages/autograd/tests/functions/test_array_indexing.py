"""Indexing, padding and strided views beyond the conformance records:
argument errors, options and Chainer's conventions."""
import numpy
import pytest

from kusari.array import cuda
from kusari.array import lazy_cupy
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check

X = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)


def test_broadcast_of_nothing_is_a_type_error():
    with pytest.raises(type_check.InvalidType, match='at least one'):
        F.broadcast()
    # The node applied directly (as Chainer's code may) checks it too.
    from kusari.autograd.functions.array import broadcast
    with pytest.raises(type_check.InvalidType, match='size'):
        broadcast.Broadcast().apply(())


def test_broadcast_of_one_gives_a_variable_of_many_a_tuple():
    # As Chainer's: one argument gives the Variable itself, not a 1-tuple.
    y = F.broadcast(X)
    assert isinstance(y, Variable)
    numpy.testing.assert_array_equal(y.array, X)
    ys = F.broadcast(X, X[:1])
    assert isinstance(ys, tuple) and len(ys) == 2


@pytest.mark.parametrize('x, target', [
    *[(X, target) for target in ((3,), (1, 3), (2, 2), (3, 2), (4, 2, 2),
                                 (3, 4))],
    # A side of length 0 broadcasts to 0 alone.
    (numpy.zeros(0, numpy.float32), (3,))])
def test_broadcast_to_rejects_shapes_x_does_not_broadcast_to(x, target):
    with pytest.raises(type_check.InvalidType, match='BroadcastTo'):
        F.broadcast_to(x, target)


@pytest.mark.parametrize('index', [5, (0, 3), (slice(None), 0, 0)])
def test_get_item_out_of_range_names_the_function(index):
    with pytest.raises(IndexError, match=r'get_item: .*\(x has shape'):
        F.get_item(X, index)


@pytest.mark.parametrize('index', [
    [True, False], [[True, False], [False, True]], [1, 0], [[1], [0]], [],
    [[]]])
def test_get_item_reads_a_list_as_numpy_2_does(index):
    # One boolean or integer array; an empty list as integers.
    x = numpy.arange(4, dtype=numpy.float32).reshape(2, 2)
    as_array = numpy.asarray(index)
    expected = x[as_array if as_array.size else as_array.astype(numpy.intp)]
    numpy.testing.assert_array_equal(F.get_item(x, index).array, expected)


def test_where_broadcasts_and_takes_scalars():
    condition = numpy.array([True, False, True])
    x = Variable(X.copy())
    y = F.where(condition, x, 0.0)
    numpy.testing.assert_array_equal(y.array, [[0, 0, 2], [3, 0, 5]])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 0, 1], [1, 0, 1]])
    assert F.where(condition, -1.0, x).dtype == numpy.float32


def test_where_gives_the_condition_no_gradient():
    # A bool Variable needs a gradient by default; it gets None, x and y
    # theirs.
    condition = Variable(numpy.array([True, False]))
    x, y = Variable(numpy.ones(2, 'f')), Variable(numpy.zeros(2, 'f'))
    z = F.where(condition, x, y)
    z.grad = numpy.array([2, 3], 'f')
    z.backward()
    assert condition.grad is None
    numpy.testing.assert_array_equal(x.grad, [2, 0])
    numpy.testing.assert_array_equal(y.grad, [0, 3])


def test_where_errors():
    with pytest.raises(type_check.InvalidType, match='broadcast'):
        F.where(numpy.ones(2, bool), X, X)
    with pytest.raises(type_check.InvalidType, match='x.dtype == y.dtype'):
        F.where(X > 1, X, X.astype(numpy.float64))
    with pytest.raises(TypeError, match='both be Python numbers'):
        F.where(X > 1, 0.0, 1.0)


def test_where_condition_must_be_bool():
    with pytest.raises(type_check.InvalidType, match='condition.dtype'):
        F.where(X, X, X)


def test_permutate_errors():
    with pytest.raises(ValueError, match='permutate: indices must be a '
                       'permutation'):
        F.permutate(X, numpy.array([1, 1], numpy.int32))
    with pytest.raises(ValueError, match='permutation'):
        F.permutate(X, numpy.array([0, -1], numpy.int32))
    for indices in ([0, 2, 1], [0]):  # longer and shorter than x's axis
        with pytest.raises(type_check.InvalidType, match='indices.shape'):
            F.permutate(X, numpy.array(indices, numpy.int32))
    for dtype in (numpy.float32, numpy.uint32):
        with pytest.raises(type_check.InvalidType, match='indices.dtype'):
            F.permutate(X, numpy.array([0, 1], dtype))
    for indices in ([[0, 1]], 0):
        with pytest.raises(type_check.InvalidType, match='indices.ndim'):
            F.permutate(X, numpy.array(indices, numpy.int32))
    with pytest.raises(TypeError, match='permutate: input 1 must be'):
        F.permutate(X, None)


def test_permutate_inverse_undoes_permutation():
    indices = numpy.array([2, 0, 1], numpy.int32)
    y = F.permutate(F.permutate(X, indices, axis=1), indices, 1, inv=True)
    numpy.testing.assert_array_equal(y.array, X)


def test_select_item_errors():
    with pytest.raises(ValueError, match=r'select_item: t must hold'):
        F.select_item(X, numpy.array([0, 3]))
    with pytest.raises(ValueError, match='select_item: t'):
        F.select_item(X, numpy.array([-1, 0]))
    with pytest.raises(type_check.InvalidType, match='t.dtype'):
        F.select_item(X, numpy.array([0., 1.]))
    with pytest.raises(type_check.InvalidType, match='x.shape'):
        F.select_item(X, numpy.array([0, 1, 1]))
    # t longer or shorter than x's rows; past the end by more than one (X
    # is 2 x 3: the bound named is its columns).
    with pytest.raises(type_check.InvalidType, match='x.shape'):
        F.select_item(X, numpy.array([0]))
    with pytest.raises(ValueError, match=r'in \[0, 3\); got values in '
                                         r'\[0, 4\]'):
        F.select_item(X, numpy.array([0, 4]))
    # x of one or three axes, t of none or two, t unsigned or of floats
    # (out of range too: the type is checked first).
    for x, t, check in (
            (X[0], numpy.array([0, 1]), 'x.ndim'),
            (X[:, :, None], numpy.array([3, 3]), 'x.ndim'),
            (X, numpy.array(1), 't.ndim'),
            (X, numpy.array([[0], [1]]), 't.ndim'),
            (X, numpy.array([5, 5], numpy.uint8), 't.dtype'),
            (X, numpy.array([5., 5.]), 't.dtype')):
        with pytest.raises(type_check.InvalidType, match=check):
            F.select_item(x, t)


def test_scatter_add_accumulates_repeats_and_keeps_a():
    a = X.copy()
    y = F.scatter_add(a, (0, [1, 1, 2]), numpy.ones(3, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [[0, 3, 3], [3, 4, 5]])
    numpy.testing.assert_array_equal(a, X)


def test_scatter_add_new_axes_and_ellipsis_index_no_axis():
    # None and Ellipsis take none of a's axes: two indices fill both.
    for slices in ((1, None, slice(None)), (Ellipsis, 1, 2), (None, 0, 1)):
        b = numpy.ones(X[slices].shape, numpy.float32)
        expected = X.copy()
        numpy.add.at(expected, slices, b)
        numpy.testing.assert_array_equal(
            F.scatter_add(X, slices, b).array, expected)


def test_scatter_add_errors():
    with pytest.raises(ValueError, match=r'scatter_add: b must have the '
                       r'shape of a\[slices\]'):
        F.scatter_add(X, 0, numpy.ones(2, numpy.float32))
    with pytest.raises(IndexError, match='scatter_add'):
        F.scatter_add(X, 5, numpy.ones(3, numpy.float32))
    # Chainer's kinds of error: two Ellipses, more indices than axes.
    with pytest.raises(ValueError, match='one Ellipsis'):
        F.scatter_add(X, (Ellipsis, Ellipsis), X)
    with pytest.raises(type_check.InvalidType, match='index 3 axes'):
        F.scatter_add(X, (0, 0, 0), numpy.ones((), numpy.float32))
    mask = numpy.ones((2, 3), dtype=bool)
    with pytest.raises(type_check.InvalidType, match='index 3 axes'):
        F.scatter_add(X, (mask, 0), numpy.ones(6, numpy.float32))
    # None indexes no axis of a; b larger than a[slices]; b of another
    # dtype, either way.
    with pytest.raises(type_check.InvalidType, match='index 3 axes'):
        F.scatter_add(X, (None, 0, 0, 0), numpy.ones((1,), numpy.float32))
    with pytest.raises(ValueError, match='b must have the shape'):
        F.scatter_add(X, 0, numpy.ones(4, numpy.float32))
    for a, b in ((X, numpy.ones(3)), (X.astype(numpy.float64),
                                      numpy.ones(3, numpy.float32))):
        with pytest.raises(type_check.InvalidType, match='dtype'):
            F.scatter_add(a, 0, b)


def test_scatter_add_of_a_matrix_of_indices():
    # An int index array of two axes indexes one axis of a.
    y = F.scatter_add(numpy.zeros(3, numpy.float32),
                      numpy.array([[0, 1], [1, 2]]),
                      numpy.ones((2, 2), numpy.float32))
    numpy.testing.assert_array_equal(y.array, [1, 2, 1])


def test_pad_modes_and_gradients():
    x = Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.pad(x, (2, 1), 'reflect')
    numpy.testing.assert_array_equal(y.array, [2, 1, 0, 1, 2, 1])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [1, 3, 2])
    y = F.pad(X, 1, 'constant', constant_values=-1)
    assert y.shape == (4, 5) and y.array[0, 0] == -1


def test_pad_errors():
    # Modes and reflect types before and after the allowed ones.
    for mode in ('mean', 'bogus'):
        with pytest.raises(ValueError, match='pad: mode'):
            F.pad(X, 1, mode)
    for reflect_type in ('odd', 'bogus'):
        with pytest.raises(ValueError, match='reflect_type'):
            F.pad(X, 1, 'reflect', reflect_type=reflect_type)
    with pytest.raises(ValueError, match='pad: x must have at least one'):
        F.pad(numpy.zeros((), numpy.float32), 1, 'constant')
    for pad_width in ((), numpy.zeros(0, numpy.int64)):
        with pytest.raises(TypeError, match='pad: pad_width'):
            F.pad(X, pad_width, 'constant')
    with pytest.raises(ValueError, match='pad: pad_width must not be '
                       'negative'):
        F.pad(X, -1, 'constant')
    with pytest.raises(TypeError, match='pad: pad_width'):
        F.pad(X, 1.5, 'constant')
    with pytest.raises(ValueError, match='does not fit'):
        F.pad(X, ((1, 1), (1, 1), (1, 1)), 'constant')


@pytest.mark.parametrize('pad_width', [((0, 0), (1, 2)), ((3, 5), (7, 0))])
def test_wrap_by_indices_is_numpys_wrap(pad_width):
    """The gather CuPy's wrap padding takes (also wider than an axis),
    run on NumPy against F.pad's (NumPy's own)."""
    from kusari.autograd.functions.array.pad import _wrap_by_indices
    numpy.testing.assert_array_equal(_wrap_by_indices(X, pad_width),
                                     F.pad(X, pad_width, 'wrap').array)


def test_as_strided_follows_chainer_on_views():
    # Results of Chainer 7.8.1: strides and offset count elements of the
    # base buffer; without an offset the view starts where x does.
    base = numpy.arange(4, dtype=numpy.float32)
    numpy.testing.assert_array_equal(
        F.as_strided(base[1:], (2, 2), (1, 1), 0).array, [[0, 1], [1, 2]])
    numpy.testing.assert_array_equal(
        F.as_strided(base[1:], (2, 2), (1, 1)).array, [[1, 2], [2, 3]])
    numpy.testing.assert_array_equal(
        F.as_strided(base, (2, 2), (-1, 1), 2).array, [[2, 3], [1, 2]])


def test_as_strided_gradient_counts_overlaps():
    x = Variable(numpy.arange(4, dtype=numpy.float32))
    F.sum(F.as_strided(x, (3, 2), (1, 1), 0)).backward()
    numpy.testing.assert_array_equal(x.grad, [1, 2, 2, 1])


def test_as_strided_of_a_matrix_owning_its_memory():
    # Chainer 7.8.1's values: x's rows lie 3 elements apart in its buffer.
    x = Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3).copy())
    y = F.as_strided(x, (2, 2), (3, 1), 1)
    numpy.testing.assert_array_equal(y.array, [[1, 2], [4, 5]])
    F.sum(y * numpy.array([[1, 2], [3, 4]], numpy.float32)).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 2], [0, 3, 4]])


def test_as_strided_of_an_empty_input():
    x = Variable(numpy.zeros(0, numpy.float32))
    y = F.as_strided(x, (0, 3), (1, 1), 0)
    assert y.shape == (0, 3)
    y.grad = numpy.zeros((0, 3), numpy.float32)
    y.backward()
    assert x.grad.shape == (0,)


def test_as_strided_gradient_skips_buffer_outside_x():
    base = numpy.arange(6, dtype=numpy.float32)
    x = Variable(base[2:4])
    F.sum(F.as_strided(x, (4,), (1,), 1)).backward()
    numpy.testing.assert_array_equal(x.grad, [1, 1])


def test_stride_array_views_the_buffer_of_any_view():
    """_stride_array (Chainer's name) views the base buffer, also through
    a view made by as_strided itself; it does not copy."""
    from kusari.autograd.functions.array.as_strided import _stride_array
    buffer = numpy.arange(8, dtype=numpy.float32)
    x = _stride_array(buffer, (3, 3), (-1, 2), 3)
    numpy.testing.assert_array_equal(x, [[3, 5, 7], [2, 4, 6], [1, 3, 5]])
    assert numpy.shares_memory(x, buffer)
    numpy.testing.assert_array_equal(
        _stride_array(x, (3,), (1,), 0), [0, 1, 2])
    numpy.testing.assert_array_equal(
        _stride_array(buffer.reshape(2, 4)[::-1], (8,), (1,), 0), buffer)
    with pytest.raises(ValueError, match='as_strided: a view'):
        _stride_array(buffer, (3, 3), (-1, 2), 1)


def test_as_strided_gradient_shared_by_overlapping_inputs():
    """Where x views one buffer element twice, the two share its gradient
    (Chainer's rule: they sum to the buffer element's gradient)."""
    from kusari.autograd.functions.array.as_strided import _stride_array
    buffer = numpy.arange(8, dtype=numpy.float32)
    x = Variable(_stride_array(buffer, (3, 3), (-1, 2), 3))
    y = F.as_strided(x, (3, 3), (1, 2), 0)
    numpy.testing.assert_array_equal(y.array, [[0, 2, 4], [1, 3, 5],
                                               [2, 4, 6]])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(
        x.grad, [[0.5, 0.5, 0], [2, 2, 1], [1, 0.5, 0.5]])


@pytest.mark.parametrize('dtype', [numpy.int32, bool])
def test_as_strided_of_ints_has_no_gradient(dtype):
    x = Variable(numpy.arange(4).astype(dtype))
    y = F.as_strided(x, (4,), (-1,), 3)
    numpy.testing.assert_array_equal(y.array, x.array[::-1])
    y.grad = numpy.ones(4, dtype=dtype)
    with pytest.raises(TypeError, match='as_strided: only a float input'):
        y.backward()


def test_as_strided_errors():
    with pytest.raises(ValueError, match='as_strided: a view'):
        F.as_strided(numpy.zeros(4, 'f'), (3,), (2,), 0)
    with pytest.raises(ValueError, match='as_strided: a view'):
        F.as_strided(numpy.zeros(4, 'f'), (2,), (-1,), 0)
    with pytest.raises(ValueError, match='storage_offset'):
        F.as_strided(numpy.zeros(4, 'f'), (2,), (1,), -1)
    for shape, strides in (((2,), (1, 1)), ((2, 2), (1,))):
        with pytest.raises(ValueError, match='differ in length'):
            F.as_strided(numpy.zeros(4, 'f'), shape, strides)
    with pytest.raises(ValueError, match='shape must be >= 0'):
        F.as_strided(numpy.zeros(4, 'f'), (-1,), (1,))
    # Reaching the end beside a negative stride.
    with pytest.raises(ValueError, match='reaches elements 1 to 4 of a '
                                         'buffer of 4'):
        F.as_strided(numpy.zeros(4, 'f'), (2, 2), (-1, 2), 2)
    # Reaching past the buffer's end by more than one element.
    with pytest.raises(ValueError, match='reaches elements 0 to 6 of a '
                                         'buffer of 4'):
        F.as_strided(numpy.zeros(4, 'f'), (4,), (2,), 0)
    # A negative stride below the buffer's start, beside a positive one.
    with pytest.raises(ValueError, match='as_strided: a view'):
        F.as_strided(numpy.zeros(4, 'f'), (2, 2), (-1, 1), 0)


@pytest.mark.parametrize('view', [
    # A view of a float32 buffer as float64; float32 views of it starting,
    # or stepping, between two of its elements.
    lambda buffer: buffer.view(numpy.float64),
    lambda buffer: numpy.ndarray((3,), numpy.float32, buffer, offset=2),
    lambda buffer: numpy.ndarray((3,), numpy.float32, buffer, strides=(6,)),
])
def test_as_strided_of_a_view_counts_its_own_elements(view):
    """Where x's elements are not elements of its buffer, as_strided
    counts x's own (x is copied)."""
    x = view(numpy.arange(8, dtype=numpy.float32))
    y = F.as_strided(x, (2,), (2,), 0)
    numpy.testing.assert_array_equal(y.array, x[[0, 2]])


def test_as_strided_of_a_view_of_another_dtype():
    # x views a float64 buffer as float32: its own elements are counted,
    # not the buffer's (the buffer is not of x's dtype, so x is copied).
    buffer = numpy.arange(4, dtype=numpy.float64)
    x = buffer.view(numpy.float32)[2:]
    y = F.as_strided(x, (3,), (2,), 0)
    numpy.testing.assert_array_equal(y.array, x[[0, 2, 4]])


def test_copy_to_cpu_and_errors():
    x = Variable(X.copy())
    y = F.copy(x, -1)
    assert isinstance(y.array, numpy.ndarray)
    F.sum(y * y).backward()
    numpy.testing.assert_array_equal(x.grad, 2 * X)
    assert F.copy(X, '@numpy').creator_node is None
    from kusari.array import cuda
    assert isinstance(F.copy(X, cuda.DummyDevice).array, numpy.ndarray)
    with pytest.raises(ValueError, match='device specifier'):
        F.copy(X, '@tpu')


@pytest.mark.gpu
def test_copy_between_cpu_and_gpu():
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None:
        pytest.skip('CuPy or a GPU is not available')
    x = Variable(X.copy())
    y = F.copy(x, 0)
    assert isinstance(y.array, cupy.ndarray)
    F.sum(F.copy(y * y, -1)).backward()
    assert isinstance(x.grad, numpy.ndarray)
    numpy.testing.assert_array_equal(x.grad, 2 * X)


@pytest.mark.parametrize('shape,slices', [((1,), []), ((1,), [[]]),
                                          ((1, 0), [[]])])
def test_get_item_empty_list_index_as_numpy(shape, slices):
    # NumPy reads an empty list index as integers (an empty float array
    # would not index).
    x = Variable(numpy.zeros(shape))
    y = F.get_item(x, slices)
    assert y.shape == numpy.zeros(shape)[slices].shape
    y.grad = numpy.ones(y.shape)
    y.backward()
    assert x.grad.shape == shape and not x.grad.any()



def _wrap_padded(xp, x, pad_width, gy):
    """F.pad(x, pad_width, 'wrap') on xp's device, and x's gradient for
    the output gradient gy, both on the host."""
    v = Variable(xp.asarray(x))
    y = F.pad(v, pad_width, 'wrap')
    y.grad = xp.asarray(gy)
    y.backward()
    return cuda.to_cpu(y.array), cuda.to_cpu(v.grad)


@pytest.mark.gpu
@pytest.mark.parametrize('pad_width', [((0, 1), (1, 2), (5, 1)),
                                       ((3, 3), (0, 7), (9, 0))])
def test_wrap_padding_wider_than_an_axis_on_the_gpu_is_numpys(pad_width):
    # CuPy 14.2's own wrap mode repeats the wrong elements there.
    import cupy
    x = numpy.arange(24, dtype='f').reshape(2, 3, 4)
    gy = numpy.random.default_rng(0).standard_normal(
        numpy.pad(x, pad_width).shape).astype('f')
    on_gpu = _wrap_padded(cupy, x, pad_width, gy)
    on_host = _wrap_padded(numpy, x, pad_width, gy)
    numpy.testing.assert_array_equal(on_gpu[0], on_host[0])
    # The copies' gradients are summed in another order on the GPU.
    numpy.testing.assert_allclose(on_gpu[1], on_host[1], rtol=1e-5,
                                  atol=1e-5)
