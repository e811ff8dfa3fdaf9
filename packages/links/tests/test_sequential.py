"""Sequential: the list interface, forward chaining, copies, text."""
import numpy
import pytest

from kusari.autograd import functions as F
from kusari.links import Sequential
from links_fakes import Linear


def test_forward_chains_layers_and_functions():
    model = Sequential(Linear(3, 4), F.tanh, Linear(4, 2))
    x = numpy.ones((5, 3), numpy.float32)
    expected = model[2](F.tanh(model[0](x)))
    numpy.testing.assert_array_equal(model(x).array, expected.array)


def test_tuple_outputs_feed_the_next_layer_as_arguments():
    model = Sequential(lambda x: (x, x * 2), lambda a, b: a + b)
    assert model(numpy.float32(1)) == 3


def test_empty_forward_is_an_error():
    with pytest.raises(RuntimeError, match='no layer'):
        Sequential()(1)


def test_links_are_children_named_among_links():
    model = Sequential(F.tanh, Linear(2, 3), F.tanh, Linear(3, 3))
    assert [name for name, _ in model.namedparams()] == [
        '/0/W', '/0/b', '/1/W', '/1/b']
    assert [link.name for link in model.children()] == ['0', '1']


def test_list_interface():
    a, b, c = Linear(2, 2), Linear(2, 2), Linear(2, 2)
    model = Sequential(a)
    model.append(F.tanh)
    model.extend([b])
    model.insert(0, c)
    assert list(model) == [c, a, F.tanh, b]
    assert len(model) == 4
    assert list(reversed(model)) == [b, F.tanh, a, c]
    assert b in model and Linear(2, 2) not in model
    assert model.index(a) == 1 and model.count(F.tanh) == 1
    assert model.pop() is b
    model.remove(c)
    assert list(model) == [a, F.tanh]
    model[1] = b
    assert list(model.children()) == [a, b]
    del model[0]
    assert list(model) == [b] and b.name == '0'
    model += Sequential(F.tanh)
    assert list(model) == [b, F.tanh]
    model.clear()
    assert len(model) == 0 and list(model.params()) == []


def test_insert_refuses_an_index_out_of_range():
    # As in Chainer (a list would clamp the index).
    model = Sequential(F.tanh)
    for index in (2, -2):
        with pytest.raises(IndexError, match='out of range'):
            model.insert(index, F.relu)
    model.insert(-1, F.relu)
    model.insert(2, F.sigmoid)
    assert list(model) == [F.relu, F.tanh, F.sigmoid]


def test_lambdas_print_as_their_source_and_refuse_pickling():
    import pickle
    model = Sequential(lambda x: x * 2)
    assert str(model) == 'Sequential(\n  (0): model = Sequential(' \
        'lambda x: x * 2),\n)'
    with pytest.raises(ValueError, match='lambda function'):
        pickle.dumps(model)
    pickle.dumps(Sequential(F.tanh))


def test_slices_give_sequentials():
    a, b = Linear(2, 2), Linear(2, 2)
    model = Sequential(a, F.tanh, b)
    head = model[:2]
    assert isinstance(head, Sequential) and list(head) == [a, F.tanh]
    model[0:2] = [b]
    assert list(model) == [b, b]


def test_non_callables_are_rejected_before_any_change():
    model = Sequential(F.tanh)
    for edit in (lambda: model.append(3), lambda: model.insert(0, 'x'),
                 lambda: model.extend([F.tanh, 3]),
                 lambda: model.__setitem__(0, None)):
        with pytest.raises(ValueError, match='must be callable'):
            edit()
    assert list(model) == [F.tanh]
    with pytest.raises(ValueError, match='got 3'):
        Sequential(F.tanh, 3)


def test_add_and_mul():
    a = Linear(2, 2)
    left, right = Sequential(a), Sequential(F.tanh)
    both = left + right
    assert list(both) == [a, F.tanh] and list(left) == [a]
    # Chainer's ValueError for a non-Sequential operand, + and +=.
    with pytest.raises(ValueError, match=r'supports only objects of '
                                         r'Sequential class, but list'):
        left + [F.tanh]
    with pytest.raises(ValueError, match=r'add \(\+=\) operator'):
        left += 0
    same = left
    left += right
    assert left is same and list(left) == [a, F.tanh]
    tripled = Sequential(a, F.tanh) * 3
    assert len(tripled) == 6 and tripled[1] is F.tanh
    assert all(layer.W.array is not a.W.array
               for layer in tripled.children())
    assert len(2 * Sequential(a)) == 2


def test_flatten_and_layer_types():
    inner = Sequential(F.tanh, Linear(2, 2))
    model = Sequential(Linear(2, 2), inner)
    flat = model.flatten()
    assert len(flat) == 3 and flat[1] is F.tanh
    assert flat.count_by_layer_type('Linear') == 2
    assert flat.count_by_layer_type('tanh') == 1
    flat.remove_by_layer_type('Linear')
    assert list(flat) == [F.tanh]


def test_copy_share_shares_arrays_and_functions():
    model = Sequential(Linear(2, 2), F.tanh)
    shared = model.copy()
    assert shared[0] is not model[0]
    assert shared[0].W.array is model[0].W.array
    assert shared[1] is F.tanh
    copied = model.copy('copy')
    assert copied[0].W.array is not model[0].W.array
    assert list(copied.children()) == [copied[0]]


def test_printed_summary():
    model = Sequential(Linear(2, 3), F.tanh)
    assert str(model) == ('Sequential(\n'
                          '  (0): Linear(out_size=3),\n'
                          '  (1): <function tanh>,\n'
                          ')')


def test_lambda_layers_print_their_source_and_refuse_pickling():
    import pickle
    model = Sequential(
        lambda x: x * 2,  # (its source line is what is printed)
    )
    assert '(0): lambda x: x * 2,  # (its source line' in str(model)
    with pytest.raises(ValueError, match='lambda'):
        pickle.dumps(model)
    pickle.dumps(Sequential(F.tanh))
