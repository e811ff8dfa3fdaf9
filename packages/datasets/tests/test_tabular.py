import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kusari import datasets
from kusari.datasets import tabular


def table(n=5):
    """Columns a (array), b (list), c (callable): a dict-mode dataset."""
    return tabular.from_data({
        'a': numpy.arange(n) * 10,
        'b': [f'b{i}' for i in range(n)],
        'c': lambda i: -i,
    })


def test_from_data_forms():
    unary = tabular.from_data([3, 4, 5])
    assert unary.keys == ('_0',) and unary.mode is None and unary[1] == 4
    named = tabular.from_data(('x', numpy.arange(3)))
    assert named.keys == ('x',) and named.mode is None
    pair = tabular.from_data(([0, 1, 2], ('y', [3, 4, 5])))
    assert pair.keys == ('_0', 'y') and pair.mode is tuple
    assert pair[2] == (2, 5)
    both = tabular.from_data((('p', 'q'), lambda i: (i, i * i)), size=4)
    assert both.keys == ('p', 'q') and both.mode is tuple
    assert both[3] == (3, 9)
    d = table()
    assert isinstance(d, datasets.TabularDataset)
    assert d.keys == ('a', 'b', 'c') and d.mode is dict and len(d) == 5
    assert d[2] == {'a': 20, 'b': 'b2', 'c': -2}


def test_from_data_errors():
    with pytest.raises(ValueError, match='size is required'):
        tabular.from_data(('x', lambda i: i))
    with pytest.raises(ValueError, match='every column must have 3 rows'):
        tabular.from_data({'a': [1, 2, 3], 'b': [1]})
    with pytest.raises(ValueError, match='every column must have 2 rows'):
        tabular.from_data([1, 2, 3], size=2)
    with pytest.raises(TypeError, match="for the key 'a'"):
        tabular.from_data({'a': 3})
    with pytest.raises(ValueError, match='repeat a key'):
        tabular.from_data((('a', [1]), ('a', [2])))


def test_getitem_batches_and_errors():
    d = table()
    assert d[[4, 0]] == [{'a': 40, 'b': 'b4', 'c': -4},
                         {'a': 0, 'b': 'b0', 'c': 0}]
    assert d[-1]['b'] == 'b4' and len(d[1:4]) == 3
    with pytest.raises(IndexError, match='index 5 .* length 5'):
        d[5]


def test_fetch_and_convert():
    d = table(3)
    data = d.fetch()
    assert data['b'] == ['b0', 'b1', 'b2'] and data['c'] == [0, -1, -2]
    converted = d.convert(data)
    assert isinstance(converted['b'], numpy.ndarray)
    numpy.testing.assert_array_equal(converted['c'], [0, -1, -2])
    t = d.as_tuple()
    assert t.mode is tuple and t.convert(t.fetch())[0].tolist() == [0, 10, 20]
    assert tabular.from_data([1, 2]).convert([1, 2]).tolist() == [1, 2]


def test_with_converter_by_mode():
    d = table(2).with_converter(lambda a, b, c: (a.sum(), b, c))
    assert d.convert(d.fetch()) == (10, ['b0', 'b1'], [0, -1])
    t = table(2).as_tuple().with_converter(lambda *cols: len(cols))
    assert t.convert(t.fetch()) == 3
    u = tabular.from_data([1, 2]).with_converter(sum)
    assert u.convert(u.fetch()) == 3
    assert d.slice[:1].convert({'a': numpy.array([1]), 'b': 0, 'c': 0}) == \
        (1, 0, 0)
    with pytest.raises(TypeError, match='converter must be callable'):
        table().with_converter(None)


def test_slice_rows_and_keys():
    d = table()
    view = d.slice[1:4, ('c', 'a')]
    assert view.keys == ('c', 'a') and view.mode is dict and len(view) == 3
    fetched = view.fetch()
    assert list(fetched) == ['c', 'a'] and fetched['c'] == [-1, -2, -3]
    numpy.testing.assert_array_equal(fetched['a'], [10, 20, 30])
    unary = d.slice[[4, 0], 'b']
    assert unary.mode is None and unary.fetch() == ['b4', 'b0']
    by_position = d.slice[::2, [0, -1]]
    assert by_position.keys == ('a', 'c')
    mask = d.slice[numpy.array([True, False, True, False, False])]
    assert mask.fetch()['b'] == ['b0', 'b2']
    assert tabular.from_data([1, 2]).slice[:, ['_0']].mode is tuple


def test_slice_errors():
    d = table()
    with pytest.raises(KeyError, match="no key 'z'"):
        d.slice[:, 'z']
    with pytest.raises(ValueError, match='twice'):
        d.slice[:, ('a', 0)]
    with pytest.raises(IndexError, match='index 9'):
        d.slice[[9]]
    with pytest.raises(TypeError, match='rows must be'):
        d.slice[3]
    with pytest.raises(IndexError, match=r'\[rows, keys\]'):
        d.slice[1:, 'a', 'b']


rows = st.one_of(
    st.builds(slice, st.integers(-12, 12) | st.none(),
              st.integers(-12, 12) | st.none(),
              st.sampled_from([None, 1, 2, -1, -2])),
    st.lists(st.integers(0, 3), max_size=6))


@given(st.integers(4, 10), rows, rows)
def test_nested_slices_match_numpy(n, outer, inner):
    reference = numpy.arange(n)
    d = tabular.from_data({'a': reference, 'b': list(reference)})
    if isinstance(outer, list):
        outer = [i for i in outer if i < n]
    first = reference[outer]
    if isinstance(inner, list):
        inner = [i for i in inner if i < len(first)]
    expected = first[inner]
    view = d.slice[outer].slice[inner, ('b', 'a')]
    fetched = view.fetch()
    assert list(fetched['b']) == expected.tolist()
    assert numpy.asarray(fetched['a']).tolist() == expected.tolist()
    assert [example['a'] for example in view] == expected.tolist()


@given(st.lists(st.integers(0, 4), min_size=1, max_size=4), st.data())
def test_concat_matches_reference(sizes, data):
    parts = [tabular.from_data({'a': numpy.arange(n) + 100 * k,
                                'b': [f'{k}:{i}' for i in range(n)]})
             for k, n in enumerate(sizes)]
    d = parts[0].concat(*parts[1:])
    a = numpy.concatenate([p.fetch()['a'] for p in parts])
    b = sum((p.fetch()['b'] for p in parts), [])
    assert len(d) == len(a)
    index = data.draw(st.lists(st.integers(0, len(a) - 1), max_size=8)
                      if len(a) else st.just([]))
    got = d.get_examples(index, (1, 0))
    assert list(got[0]) == [b[i] for i in index]
    assert numpy.asarray(got[1]).tolist() == a[index].tolist()
    whole = d.fetch()
    assert whole['b'] == b and numpy.asarray(whole['a']).tolist() == \
        a.tolist()


def test_concat_keeps_mode_and_joins_rows_as_lists():
    d = table(3).concat(table(2))
    assert d.mode is dict and len(d) == 5
    # As in Chainer: rows from several datasets are joined into lists,
    # rows from one come back as that dataset gave them.
    assert d.fetch()['a'] == [0, 10, 20, 0, 10]
    assert isinstance(d.get_examples([2, 0], None)[0], numpy.ndarray)
    assert isinstance(d.get_examples(slice(3, 5), None)[0], numpy.ndarray)
    assert d[3] == {'a': 0, 'b': 'b0', 'c': 0}
    with pytest.raises(ValueError, match='same keys'):
        table().concat(tabular.from_data(('a', [1])))
    assert table().concat() is not None


class Recorder(tabular.DelegateDataset):
    """A dataset that records the indices it is read with."""

    def __init__(self, dataset):
        super().__init__(dataset)
        self.calls = []

    def get_examples(self, indices, key_indices):
        self.calls.append((indices, key_indices))
        return super().get_examples(indices, key_indices)


def test_concat_reads_each_dataset_for_its_own_rows():
    a, b = Recorder(table(10)), Recorder(table(5))
    d = a.concat(b)
    got = d.get_examples([3, 1, 12, 14, 7], None)
    assert got[0] == [30, 10, 20, 40, 70]
    assert a.calls == [([3, 1, 7], None)] and b.calls == [([2, 4], None)]
    a.calls.clear(), b.calls.clear()
    assert d.get_examples(slice(13, 6, -2), (0,)) == ([30, 10, 90, 70],)
    assert b.calls == [(slice(3, None, -2), (0,))]
    assert a.calls == [(slice(9, 6, -2), (0,))]
    a.calls.clear(), b.calls.clear()
    d.get_examples(slice(9, None, -2), None)
    assert a.calls == [(slice(9, None, -2), None)] and b.calls == []
    d.get_examples([], None)
    d.get_examples(slice(20, None), None)
    assert len(a.calls) == 1 and b.calls == []
    assert d.get_examples([], (1, 0)) == ([], [])


def test_slice_passes_slices_and_no_keys_through():
    base = Recorder(table(10))
    view = base.slice[3::-2]
    assert view.keys == base.keys and view.mode is dict and len(view) == 2
    view.get_examples(None, None)
    view.get_examples(slice(1, None, -1), (1,))
    assert base.calls == [(slice(3, None, -2), None),
                          (slice(1, 5, 2), (1,))]
    base.calls.clear()
    assert base.slice[[0, 2], ('c', 'a')].get_examples([1], None) == (
        [-2], numpy.array([20]))
    assert base.calls == [([2], (2, 0))]


def test_slice_boolean_mask_of_another_length_is_a_value_error():
    with pytest.raises(ValueError, match='length of the dataset, 5, got 6'):
        table().slice[[True] * 6]


def test_join():
    left = tabular.from_data(('x', [1, 2, 3]))
    right = table(3)
    d = left.join(right)
    assert d.keys == ('x', 'a', 'b', 'c') and d.mode is dict
    assert d[1] == {'x': 2, 'a': 10, 'b': 'b1', 'c': -1}
    assert d.get_examples([2], (3, 0)) == ([-2], [3])
    both_unary = left.join(tabular.from_data(('y', [4, 5, 6])))
    assert both_unary.mode is tuple and both_unary[0] == (1, 4)
    with pytest.raises(ValueError, match='same length'):
        left.join(table(2))
    with pytest.raises(ValueError, match='repeat a key'):
        right.join(right)


def test_columns_are_computed_only_when_asked():
    calls = []
    d = tabular.from_data({'a': [1, 2], 'slow': lambda i: calls.append(i)})
    d.slice[:, 'a'].fetch()
    d.get_examples([1], (0,))
    assert calls == []
    d.get_examples([1], None)
    assert calls == [1]


def test_transform_modes():
    d = table(3)
    as_tuple = d.transform(('s', 't'), lambda a, b, c: (a + c, b.upper()))
    assert as_tuple.mode is tuple and as_tuple[2] == (18, 'B2')
    as_dict = d.as_tuple().transform(
        ('s',), lambda a, b, c: {'s': a * 2})
    assert as_dict.mode is dict and as_dict.fetch() == {'s': [0, 20, 40]}
    # As in Chainer, a str key is the one-key tuple: the returned type
    # gives the mode.
    one = tabular.from_data([1, 2])
    assert one.transform('y', lambda v: v * 2)[1] == 4
    assert one.transform('y', lambda v: v).mode is None
    as_tuple = one.transform('y', lambda v: (v,))
    assert as_tuple.mode is tuple and as_tuple[0] == (1,)
    assert one.transform('y', lambda v: {'y': v})[1] == {'y': 2}
    with pytest.raises(ValueError, match='returned 2 values'):
        one.transform('y', lambda v: (v, v))[0]
    assert d.slice[:0].transform(('s',), lambda **kw: (0,)).mode is tuple


def test_transform_bare_value_under_one_key():
    # As in Chainer: one tuple key and a bare value give mode None.
    d = table(3).transform(('s',), lambda **kw: 7)
    assert d.mode is None and d.keys == ('s',)
    assert d[1] == 7 and d.fetch() == [7, 7, 7]


def test_transform_errors():
    d = table(2)
    with pytest.raises(ValueError, match='returned 1 values'):
        d.transform(('s', 't'), lambda **kw: (1,))[0]
    with pytest.raises(ValueError, match=r"returned the keys \('u',\)"):
        d.transform(('s',), lambda **kw: {'u': 1})[0]
    with pytest.raises(TypeError, match='must return a tuple or a dict'):
        d.transform(('s', 't'), lambda **kw: 1)[0]
    flip = iter([(1,), 2])
    changing = d.transform(('s',), lambda **kw: next(flip))
    assert changing[0] == (1,)
    with pytest.raises(ValueError, match='same type'):
        changing[1]
    with pytest.raises(TypeError, match='must be callable'):
        d.transform('s', 3)
    with pytest.raises(TypeError, match='keys must be str'):
        d.transform((1,), lambda **kw: (1,))


def test_transform_batch():
    d = table(4)
    doubled = d.transform_batch(
        ('a2', 'b'), lambda a, b, c: (a * 2, [x + '!' for x in b]))
    assert doubled.slice[1:3].fetch()[1] == ['b1!', 'b2!']
    numpy.testing.assert_array_equal(doubled.fetch()[0], [0, 20, 40, 60])
    assert doubled.mode is tuple
    unary = d.transform_batch('n', lambda a, b, c: a + 1)
    assert unary[[3, 1]] == [31, 11]
    with pytest.raises(ValueError, match="column 'n' has 1 rows"):
        d.transform_batch('n', lambda a, b, c: [0]).fetch()


def test_as_mode_views_and_chainer_spellings():
    d = table(2)
    assert d.as_tuple()[1] == (10, 'b1', -1)
    assert d.as_tuple().as_dict()[1] == d[1]
    assert d.astuple().mode is tuple and d.asdict().mode is dict


def test_delegate_dataset_subclass():
    class Named(tabular.DelegateDataset):
        def __init__(self):
            super().__init__(table(3))

        def describe(self):
            return f'{len(self)} rows of {self.keys}'

    d = Named()
    assert d.describe() == "3 rows of ('a', 'b', 'c')"
    assert d[1]['b'] == 'b1' and d.slice[:1, 'c'].fetch() == [0]
    assert d.mode is dict


def test_abstract_methods_name_the_class():
    class Bare(datasets.TabularDataset):
        pass

    for get in (len, lambda d: d.keys, lambda d: d.mode,
                lambda d: d.get_examples(None, None)):
        with pytest.raises(NotImplementedError, match='Bare must'):
            get(Bare())
