"""CuPy arrays: copied to the host when saved, back in place when loaded."""
import numpy
import pytest
from serializer_fakes import Tree

from kusari.serializers import DictionarySerializer


@pytest.fixture
def cupy():
    # The gpu mark skips these tests, saying why, where CuPy or a GPU is
    # missing (the repository's conftest.py): here CuPy imports.
    import cupy
    return cupy


@pytest.mark.gpu
def test_saving_copies_cupy_arrays_to_the_host(cupy):
    serializer = DictionarySerializer()
    W = cupy.arange(6, dtype=cupy.float32).reshape(2, 3)
    serializer.save(Tree({'W': W}))
    assert isinstance(serializer.target['W'], numpy.ndarray)
    numpy.testing.assert_array_equal(serializer.target['W'], W.get())


@pytest.mark.gpu
@pytest.mark.parametrize('layout', ['contiguous', 'transposed', '0-d'])
def test_loading_fills_cupy_arrays_in_place(cupy, fmt, tmp_path, layout):
    path = str(tmp_path / f'm{fmt.suffix}')
    saved = (numpy.array(5.0) if layout == '0-d'
             else numpy.arange(6, dtype=numpy.float64).reshape(2, 3))
    fmt.save(path, Tree({'W': saved}))
    destination = {
        'contiguous': lambda: cupy.zeros((2, 3), cupy.float32),
        'transposed': lambda: cupy.zeros((3, 2), cupy.float32).T,
        '0-d': lambda: cupy.zeros((), cupy.float32)}[layout]()
    target = Tree({'W': destination})
    fmt.load(path, target)
    assert target.values['W'] is destination
    numpy.testing.assert_array_equal(destination.get(), saved)


@pytest.mark.gpu
def test_loading_into_cupy_checks_the_shape(cupy, fmt, tmp_path):
    path = str(tmp_path / f'm{fmt.suffix}')
    fmt.save(path, Tree({'W': numpy.zeros((2, 3))}))
    with pytest.raises(ValueError, match=r'\(2, 3\).*\(3, 2\)'):
        fmt.load(path, Tree({'W': cupy.zeros((3, 2))}))
