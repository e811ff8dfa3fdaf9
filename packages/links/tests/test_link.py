"""Link, Chain and ChainList: registration, traversal, copies, gradients,
devices, text and errors."""
import copy
import pickle
import warnings

import numpy
import pytest

from kusari.array import backend
from kusari.autograd import Parameter, Variable
from kusari.links import Chain, ChainList, Link
from links_fakes import MLP, Counter, Linear, Model


def names(pairs):
    return [name for name, _ in pairs]


# -- registration ------------------------------------------------------

def test_init_scope_registers_parameters_and_names_them():
    link = Link()
    with link.init_scope():
        link.p = Parameter(numpy.ones(2, numpy.float32))
        link.not_param = numpy.zeros(2)
    assert names(link.namedparams()) == ['/p']
    assert link.p.name == 'p'
    assert link.not_param.shape == (2,)


def test_outside_init_scope_assignment_is_a_plain_attribute():
    link = Link()
    link.p = Parameter(numpy.ones(2, numpy.float32))
    chain = Chain()
    chain.child = Linear(2, 3)
    assert list(link.params()) == []
    assert list(chain.children()) == []
    assert not link.within_init_scope


def test_within_init_scope_is_true_only_inside():
    link = Link()
    with link.init_scope():
        assert link.within_init_scope
    assert not link.within_init_scope


def test_chain_registers_children_sorted_with_names():
    chain = Chain()
    with chain.init_scope():
        chain.z = Parameter(numpy.ones(2, numpy.float32))
        chain.b = Linear(2, 3)
        chain.a = Linear(2, 3)
        chain.y = Parameter(numpy.ones(2, numpy.float32))
    assert names(chain.namedparams()) == [
        '/y', '/z', '/a/W', '/a/b', '/b/W', '/b/b']
    assert names(chain.namedlinks()) == ['/', '/a', '/b']
    assert [child.name for child in chain.children()] == ['a', 'b']
    assert chain['a'] is chain.a


def test_creating_models_example_namedlinks():
    class Classifier(Chain):
        def __init__(self, predictor):
            super().__init__()
            with self.init_scope():
                self.predictor = predictor

    model = Classifier(Chain(l1=Linear(2, 2), l2=Linear(2, 2),
                             l3=Linear(2, 2)))
    assert names(model.namedlinks(skipself=True)) == [
        '/predictor', '/predictor/l1', '/predictor/l2', '/predictor/l3']
    assert list(model.links(skipself=True))[0] is model.predictor


def test_traversals_are_generators():
    model = Model()
    for method in (model.params, model.namedparams, model.links,
                   model.namedlinks, model.children):
        assert type(method()).__name__ == 'generator'


def test_add_param_and_persistent():
    link = Link()
    link.add_param('w', (2, 3))
    link.add_param('u', 4, dtype=numpy.float64)
    link.add_param('v', (2,), initializer=3.)
    link.add_param('lazy')
    link.add_persistent('count', 0)
    assert link.w.shape == (2, 3) and numpy.isnan(link.w.array).all()
    assert link.u.dtype == numpy.float64
    assert (link.v.array == 3).all()
    assert link.lazy.array is None
    assert names(link.namedparams()) == ['/lazy', '/u', '/v', '/w']
    assert names(link.namedparams(include_uninit=False)) == [
        '/u', '/v', '/w']
    assert list(link._persistent) == ['count']


def test_link_constructor_params():
    link = Link(a=(2, 3), b=((2,), numpy.float64))
    assert link.a.shape == (2, 3) and link.b.dtype == numpy.float64


def test_chain_and_chainlist_constructors():
    chain = Chain(x=Linear(2, 2))
    assert names(chain.namedlinks()) == ['/', '/x']
    chainlist = ChainList(Linear(2, 2), Linear(2, 3))
    assert [link.name for link in chainlist] == ['0', '1']
    assert names(chainlist.namedparams()) == ['/0/W', '/0/b', '/1/W', '/1/b']


def test_namedpersistents_names_every_persistent_value_by_path():
    inner = Link()
    inner.add_persistent('mean', numpy.zeros(2))
    chain = Chain()
    chain.add_persistent('step', 3)
    with chain.init_scope():
        chain.child = inner
    found = {path: (owner, name)
             for path, owner, name in chain.namedpersistents()}
    assert found == {'/step': (chain, 'step'), '/child/mean': (inner, 'mean')}


def test_register_persistent():
    link = Link()
    link.state = numpy.arange(3)
    link.register_persistent('state')
    assert list(link._persistent) == ['state']


def test_delattr_unregisters():
    chain = Model()
    del chain.counter
    del chain.scale
    assert names(chain.namedlinks()) == [
        '/', '/predictor', '/predictor/l1', '/predictor/l2']
    assert '/scale' not in names(chain.namedparams())


def test_reassigning_a_parameter_in_scope_replaces_it():
    link = Link()
    with link.init_scope():
        link.p = Parameter(numpy.ones(2, numpy.float32))
        link.p = Parameter(numpy.zeros(2, numpy.float32))
    assert [p.array.sum() for p in link.params()] == [0]


# -- errors --------------------------------------------------------------

def test_add_link_rejects_non_links():
    chain = Chain()
    with pytest.raises(TypeError, match="child 'l2'.*got int"):
        chain.add_link('l2', 3)
    assert list(chain.children()) == []


def test_duplicate_names_are_errors():
    chain = Model()
    with pytest.raises(AttributeError, match="'predictor': attribute exists"):
        chain.add_link('predictor', Linear(2, 2))
    with pytest.raises(AttributeError, match="'scale': attribute exists"):
        chain.add_param('scale', (2,))
    with pytest.raises(AttributeError, match="'counter': attribute exists"):
        chain.add_persistent('counter', 0)
    with pytest.raises(AttributeError, match="'predictor': attribute"):
        with chain.init_scope():
            chain.predictor = MLP()
    with pytest.raises(AttributeError, match='already a child link'):
        with chain.init_scope():
            chain.counter = Parameter(numpy.ones(1, numpy.float32))
    assert isinstance(chain.counter, Counter)


def test_names_clashing_with_class_attributes_are_errors():
    chain = Chain()
    with pytest.raises(AttributeError, match='hide the class attribute '
                       'Chain.copy'):
        with chain.init_scope():
            chain.copy = Parameter(numpy.ones(1, numpy.float32))
    with pytest.raises(AttributeError, match='Chain.params'):
        chain.add_link('params', Linear(2, 2))
    assert list(chain.params()) == []


def test_register_persistent_of_missing_attribute():
    with pytest.raises(AttributeError, match="non-existent attribute 'x'"):
        Link().register_persistent('x')


def test_init_scope_before_super_init():
    class Bad(Link):
        def __init__(self):
            with self.init_scope():
                pass

    with pytest.raises(RuntimeError, match=r'super\(\).__init__'):
        Bad()


def test_calling_a_link_without_forward():
    with pytest.raises(TypeError, match='Link cannot be called.*forward'):
        Link()(1)


def test_copyparams_errors_name_the_path():
    model = Model()
    other = Model()
    del other.predictor.l2
    before = model.predictor.l1.W.array.copy()
    # KeyError for a missing counterpart, as Chainer 7.8.1 raises.
    with pytest.raises(KeyError, match='/predictor/l2/W'):
        model.copyparams(other)
    with pytest.raises(KeyError, match='/predictor/l2/W'):
        model.addgrads(other)
    numpy.testing.assert_array_equal(model.predictor.l1.W.array, before)
    wide = Model()
    wide.predictor.l1.W.array = numpy.ones((4, 5), numpy.float32)
    with pytest.raises(ValueError, match=r'/predictor/l1/W has shape'):
        model.copyparams(wide)
    with pytest.raises(TypeError, match='expected a Link'):
        model.copyparams(3)


def test_copy_rejects_unknown_mode():
    with pytest.raises(ValueError, match="'share', 'copy' or 'init'"):
        Linear(2, 2).copy('deep')


# -- lazy parameters -----------------------------------------------------

def test_lazy_parameter_initialized_on_first_call():
    link = Linear(None, 3)
    assert link.W.array is None
    assert names(link.namedparams(include_uninit=False)) == ['/b']
    y = link(numpy.ones((2, 5), numpy.float32))
    assert y.shape == (2, 3) and link.W.shape == (3, 5)


def test_count_params_warns_for_uninitialized():
    link = Linear(None, 3)
    with pytest.warns(UserWarning, match="'/W' has not been initialized"):
        assert link.count_params() == 3
    assert Model().count_params() == 3 * 4 + 4 + 4 * 2 + 2 + 1


# -- copies --------------------------------------------------------------

def test_copy_share_copies_no_array():
    model = Model()
    model.predictor.l1.W.grad = numpy.ones((4, 3), numpy.float32)
    shared = model.copy('share')
    for (path, mine), (_, theirs) in zip(model.namedparams(),
                                         shared.namedparams()):
        assert isinstance(theirs, Parameter)
        assert theirs is not mine, path
        assert theirs.array is mine.array, path
        assert theirs.grad is None
    assert shared.counter.total is model.counter.total
    assert shared.name is None and shared.predictor.name == 'predictor'
    assert shared.predictor is not model.predictor
    with shared.init_scope():
        shared.extra = Linear(2, 2)
    assert 'extra' not in model._children


def test_copy_copy_and_init():
    model = Model()
    model.name = 'root'
    copied = model.copy('copy')
    for (_, mine), (_, theirs) in zip(model.namedparams(),
                                      copied.namedparams()):
        assert theirs.array is not mine.array
        numpy.testing.assert_array_equal(theirs.array, mine.array)
    assert copied.name == 'root'
    numpy.random.seed(0)
    init = model.copy('init')
    assert not numpy.array_equal(init.predictor.l1.W.array,
                                 model.predictor.l1.W.array)
    assert (init.predictor.l1.b.array == 0).all()


def test_chainlist_copy_share():
    chainlist = ChainList(Linear(2, 2), Linear(2, 3))
    shared = chainlist.copy()
    assert shared[1].W.array is chainlist[1].W.array
    assert shared[1] is not chainlist[1]
    assert [link.name for link in shared] == ['0', '1']


def test_deepcopy_and_pickle_keep_everything():
    model = Model()
    model.counter.calls = 5
    for clone in (copy.deepcopy(model),
                  pickle.loads(pickle.dumps(model))):
        assert names(clone.namedparams()) == names(model.namedparams())
        for (_, a), (_, b) in zip(model.namedparams(),
                                  clone.namedparams()):
            assert b.array is not a.array
            numpy.testing.assert_array_equal(a.array, b.array)
        assert clone.counter.calls == 5
        assert clone.predictor.l1.name == 'l1'


def test_repeat():
    link = Linear(2, 2)
    repeated = link.repeat(3)
    assert len(repeated) == 3
    assert all(layer.W.array is not link.W.array for layer in repeated)
    shared = link.repeat(2, mode='share')
    assert shared[0].W.array is link.W.array
    assert len(link.repeat(0)) == 0


def test_copyparams_copies_params_and_persistents():
    model, source = Model(), Model()
    source.counter.total[...] = 7
    source.counter.calls = 3
    model.copyparams(source)
    for (_, a), (_, b) in zip(model.namedparams(), source.namedparams()):
        assert a.array is not b.array
        numpy.testing.assert_array_equal(a.array, b.array)
    assert (model.counter.total == 7).all() and model.counter.calls == 3
    fresh = Model()
    fresh.copyparams(Model(), copy_persistent=False)
    assert fresh.counter.calls == 0


def test_shared_copy_of_a_lazy_link_gets_the_array_it_is_given():
    lazy = Linear(None, 2)
    shared = lazy.copy('share')
    lazy(numpy.ones((1, 3), numpy.float32))
    assert shared.W.array is lazy.W.array
    assert shared.W.grad is None


def test_copyparams_initializes_lazy_parameters():
    lazy = Linear(None, 2)
    lazy.copyparams(Linear(3, 2))
    assert lazy.W.shape == (2, 3)


# -- gradients -----------------------------------------------------------

def test_backward_through_chain_then_cleargrads():
    model = MLP()
    loss = model(Variable(numpy.ones((2, 3), numpy.float32)))
    loss.grad = numpy.ones_like(loss.array)
    loss.backward()
    assert all(p.grad is not None for p in model.params())
    model.cleargrads()
    assert all(p.grad is None for p in model.params())


def test_zerograds_is_deprecated_and_zeroes():
    model = MLP()
    with pytest.warns(DeprecationWarning, match='cleargrads'):
        model.zerograds()
    assert all((p.grad == 0).all() for p in model.params())


def test_addgrads():
    a, b = MLP(), MLP()
    for p in b.params():
        p.grad = numpy.ones_like(p.array)
    a.cleargrads()  # (their gradients start as NaN, as in Chainer)
    a.addgrads(b)
    a.addgrads(b)
    assert all((p.grad == 2).all() for p in a.params())


def test_update_enabled():
    class Rule:
        enabled = True

    model = MLP()
    assert not model.update_enabled
    for p in model.params():
        p.update_rule = Rule()
    assert model.update_enabled
    model.disable_update()
    assert not model.update_enabled
    model.enable_update()
    assert all(p.update_rule.enabled for p in model.params())


# -- devices -------------------------------------------------------------

def test_to_device_cpu_keeps_arrays_and_sets_device():
    model = Model()
    model.predictor.l1.W.grad = numpy.ones((4, 3), numpy.float32)
    arrays = [p.array for p in model.params()]
    assert model.to_device('@numpy') is model
    with pytest.warns(DeprecationWarning, match='use to_device'):
        # Deprecated since Chainer v7, still working.
        assert model.to_cpu() is model
    assert [p.array for p in model.params()] == arrays
    assert model.device == backend.CpuDevice()
    assert model.predictor.l1.device == backend.CpuDevice()
    assert model.xp is numpy
    assert model.counter.calls == 0


def test_visitor_sees_params_grads_and_persistent_arrays_only():
    from kusari.array import device_resident

    class Recorder(device_resident.DeviceResidentsVisitor):
        def __init__(self):
            super().__init__()
            self.arrays, self.variables, self.residents = [], [], []

        def visit_device_resident(self, resident):
            self.residents.append(resident)

        def visit_array(self, array):
            self.arrays.append(array)
            return array

        def visit_variable(self, var):
            self.variables.append(var)

    model = Model()
    recorder = Recorder()
    model.device_resident_accept(recorder)
    assert recorder.residents == list(model.links())
    assert recorder.variables == list(model.params())
    assert len(recorder.arrays) == 1
    assert recorder.arrays[0] is model.counter.total


def test_lazy_parameter_follows_the_link_device():
    link = Linear(None, 2).to_device('@numpy')
    assert link.W.device == backend.CpuDevice()


@pytest.mark.gpu
def test_to_gpu_moves_params_grads_and_persistents():
    import cupy
    model = Model()
    model.predictor.l1.W.grad = numpy.ones((4, 3), numpy.float32)
    with pytest.warns(DeprecationWarning):
        model.to_gpu()
    assert isinstance(model.predictor.l1.W.array, cupy.ndarray)
    assert isinstance(model.predictor.l1.W.grad, cupy.ndarray)
    assert isinstance(model.counter.total, cupy.ndarray)
    assert model.counter.calls == 0
    with pytest.warns(DeprecationWarning):
        model.to_cpu()
    assert isinstance(model.counter.total, numpy.ndarray)


class _LoadingSerializer:
    """Stands for a deserializer whose file holds ``value`` for each key."""

    def __init__(self, value):
        self.value = value

    def __getitem__(self, name):
        return self

    def __call__(self, name, value):
        return self.value


@pytest.mark.gpu
def test_persistent_loaded_into_none_joins_the_link_device():
    import cupy
    link = Link()
    link.add_persistent('statistics', None)
    link.to_device('@cupy:0')
    link.serialize(_LoadingSerializer(numpy.arange(3.0)))
    assert isinstance(link.statistics, cupy.ndarray)
    numpy.testing.assert_array_equal(link.statistics.get(), [0, 1, 2])


@pytest.mark.gpu
def test_deep_copy_of_a_link_on_the_gpu():
    import cupy
    model = Model().to_device('@cupy:0')
    copied = copy.deepcopy(model)
    assert isinstance(copied.predictor.l1.W.array, cupy.ndarray)
    assert copied.device == model.device


# -- text ----------------------------------------------------------------

def test_repr_shows_the_tree():
    model = Chain(l1=Linear(3, 2), sub=ChainList(Linear(2, 2)))
    expected = ('Chain(\n'
                '  (l1): Linear(out_size=2),\n'
                '  (sub): ChainList(\n'
                '    (0): Linear(out_size=2),\n'
                '  ),\n'
                ')')
    assert repr(model) == expected
    assert str(model) == expected
    assert repr(Link()) == 'Link()'


# -- ChainList as a list -------------------------------------------------

def test_chainlist_list_interface_renames():
    chainlist = ChainList(Linear(2, 2), Linear(2, 2))
    first = chainlist[0]
    chainlist.insert(0, Linear(2, 3))
    assert [link.name for link in chainlist] == ['0', '1', '2']
    assert first.name == '1'
    del chainlist[0]
    assert chainlist[0] is first and first.name == '0'
    chainlist.append(Linear(2, 4))
    assert len(chainlist) == 3
    assert chainlist.pop() is not first and len(chainlist) == 2
    with pytest.raises(TypeError, match='expected a Link'):
        chainlist.append(lambda x: x)
    with pytest.raises(TypeError, match='ChainList'):
        with chainlist.init_scope():
            chainlist.extra = Linear(2, 2)


def test_no_warning_on_plain_use():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        model = Model()
        model(numpy.ones((1, 3), numpy.float32))
