import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kusari import datasets


class Squares(datasets.DatasetMixin):

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def get_example(self, i):
        assert 0 <= i < self.n
        return i * i


def test_mixin_indexing():
    d = Squares(5)
    assert d[2] == 4 and d[-1] == 16 and d[numpy.int64(3)] == 9
    assert d[1:4] == [1, 4, 9] and d[::-2] == [16, 4, 0]
    assert d[[4, -5, 2]] == [16, 0, 4]
    assert d[numpy.array([1, 1])] == [1, 1]
    assert d[numpy.array([True, False, False, False, True])] == [0, 16]
    assert d[[]] == []


@pytest.mark.parametrize('index', [5, -6, [0, 5]])
def test_mixin_out_of_range_names_dataset_index_and_length(index):
    with pytest.raises(IndexError, match=r'Squares: index -?\d+ is out of '
                                         r'range for a dataset of length 5'):
        Squares(5)[index]


@pytest.mark.parametrize('index', [1.0, '1', numpy.zeros((2, 2), int)])
def test_mixin_bad_index_type(index):
    with pytest.raises(TypeError, match='Squares'):
        Squares(5)[index]


def test_mixin_unimplemented_names_the_class():
    class Empty(datasets.DatasetMixin):
        pass

    with pytest.raises(NotImplementedError, match='Empty must implement'):
        len(Empty())


def test_mixin_iterates_until_index_error():
    assert list(Squares(3)) == [0, 1, 4]


@given(st.integers(0, 12), st.integers(-15, 15), st.integers(-15, 15),
       st.sampled_from([None, 1, 2, -1, -3]))
def test_mixin_slices_match_lists(n, start, stop, step):
    assert Squares(n)[start:stop:step] == \
        [i * i for i in range(n)][start:stop:step]


def test_tuple_dataset():
    a, b = numpy.arange(4) * 10, ['w', 'x', 'y', 'z']
    d = datasets.TupleDataset(a, b)
    assert len(d) == 4
    assert d[1] == (10, 'x') and d[-1] == (30, 'z')
    assert d[1:3] == [(10, 'x'), (20, 'y')]
    # As in Chainer, a list or an index array batches the columns.
    columns = d[[3, 0]]
    assert isinstance(columns, tuple) and columns[1] == ['z', 'w']
    numpy.testing.assert_array_equal(columns[0], [30, 0])
    columns = d[numpy.array([2, -1])]
    numpy.testing.assert_array_equal(columns[0], [20, 30])
    assert columns[1] == ['y', 'z']
    with pytest.raises(IndexError, match='TupleDataset: index 4 .* 4'):
        d[4]


def test_tuple_dataset_errors():
    with pytest.raises(ValueError, match='no datasets'):
        datasets.TupleDataset()
    with pytest.raises(ValueError, match='same length.*#0: 2, #1: 3'):
        datasets.TupleDataset([1, 2], [1, 2, 3])


def test_dict_dataset():
    d = datasets.DictDataset(x=numpy.arange(3), y=Squares(3))
    assert d[2] == {'x': 2, 'y': 4}
    batch = d[[0, -1]]  # as in Chainer: the columns, batched
    assert sorted(batch) == ['x', 'y'] and batch['y'] == [0, 4]
    numpy.testing.assert_array_equal(batch['x'], [0, 2])
    assert d[:1] == [{'x': 0, 'y': 0}]
    with pytest.raises(ValueError, match='x: 3, y: 2'):
        datasets.DictDataset(x=[1, 2, 3], y=[1, 2])
    with pytest.raises(IndexError, match='DictDataset: index -4'):
        d[-4]


@given(st.lists(st.integers(0, 4), max_size=4), st.data())
def test_concatenated_matches_list_concatenation(sizes, data):
    parts = [list(range(100 * k, 100 * k + n)) for k, n in enumerate(sizes)]
    d = datasets.ConcatenatedDataset(*parts)
    flat = sum(parts, [])
    assert len(d) == len(flat)
    assert d[:] == flat
    if flat:
        i = data.draw(st.integers(-len(flat), len(flat) - 1))
        assert d[i] == flat[i]
    with pytest.raises(IndexError, match='ConcatenatedDataset'):
        d[len(flat)]


def test_sub_dataset():
    base = list('abcdef')
    d = datasets.SubDataset(base, 1, 4)
    assert d[:] == ['b', 'c', 'd'] and d[-1] == 'd'
    with pytest.raises(IndexError, match='SubDataset: index 3 .* 3'):
        d[3]
    ordered = datasets.SubDataset(base, 2, 5, order=[5, 4, 3, 2, 1, 0])
    assert ordered[:] == ['d', 'c', 'b']


@pytest.mark.parametrize('start, finish, order', [
    (-1, 3, None), (2, 1, None), (0, 7, None), (0, 2, [0, 1])])
def test_sub_dataset_errors(start, finish, order):
    with pytest.raises(ValueError, match='SubDataset'):
        datasets.SubDataset(list(range(6)), start, finish, order)


def test_split_dataset():
    first, second = datasets.split_dataset(list(range(5)), 2)
    assert first[:] == [0, 1] and second[:] == [2, 3, 4]
    first, second = datasets.split_dataset(list(range(3)), 1, [2, 0, 1])
    assert first[:] == [2] and second[:] == [0, 1]
    with pytest.raises(ValueError, match=r'split_at must be in \[0, '):
        datasets.split_dataset([1, 2], 3)
    with pytest.raises(TypeError, match='split_at must be an integer'):
        datasets.split_dataset([1, 2], 1.5)


def test_split_dataset_random_is_a_seeded_partition():
    first, second = datasets.split_dataset_random(list(range(20)), 7, seed=3)
    assert len(first) == 7 and len(second) == 13
    assert sorted(first[:] + second[:]) == list(range(20))
    again, _ = datasets.split_dataset_random(list(range(20)), 7, seed=3)
    assert again[:] == first[:]
    assert first[:] != list(range(7))


def test_split_dataset_n():
    parts = datasets.split_dataset_n(list(range(7)), 3)
    assert [p[:] for p in parts] == [[0, 1], [2, 3], [4, 5]]
    parts = datasets.split_dataset_n_random(list(range(9)), 3, seed=0)
    assert sorted(sum((p[:] for p in parts), [])) == list(range(9))
    with pytest.raises(ValueError, match='n must be positive'):
        datasets.split_dataset_n([1], 0)


@pytest.mark.parametrize('n, folds', [(10, 3), (7, 7), (5, 1)])
def test_cross_validation_folds_partition(n, folds):
    splits = datasets.get_cross_validation_datasets(list(range(n)), folds)
    assert len(splits) == folds
    tests = []
    for train, test in splits:
        assert sorted(train[:] + test[:]) == list(range(n))
        tests += test[:]
    assert sorted(tests) == list(range(n))
    assert {len(t) for _, t in splits} <= {n // folds, -(-n // folds)}


def test_cross_validation_folds_follow_chainer():
    # Chainer 7.8.1's pairs: the last fold first, each training order the
    # whole order rotated to start after the test fold.
    splits = datasets.get_cross_validation_datasets(list(range(7)), 3)
    assert [(train[:], test[:]) for train, test in splits] == [
        ([0, 1, 2, 3], [4, 5, 6]), ([4, 5, 6, 0, 1], [2, 3]),
        ([2, 3, 4, 5, 6], [0, 1])]


def test_cross_validation_random_and_deprecated_n_fold():
    base = list(range(12))
    a = datasets.get_cross_validation_datasets_random(base, 4, seed=1)
    with pytest.warns(DeprecationWarning, match='n_fold is deprecated'):
        b = datasets.get_cross_validation_datasets_random(
            base, n_fold=4, seed=1)
    assert [t[:] for _, t in a] == [t[:] for _, t in b]
    assert [t[:] for _, t in a] != [[0, 1, 2], [3, 4, 5], [6, 7, 8],
                                    [9, 10, 11]]
    with pytest.raises(TypeError, match='n_folds is required'):
        datasets.get_cross_validation_datasets(base)
    with pytest.raises(TypeError, match='unexpected keyword'):
        datasets.get_cross_validation_datasets(base, 2, folds=3)


def test_transform_dataset():
    d = datasets.TransformDataset(Squares(4), lambda x: -x)
    assert len(d) == 4 and d[3] == -9 and d[1:3] == [-1, -4]
    with pytest.raises(TypeError, match='transform must be callable'):
        datasets.TransformDataset([1], 3)
