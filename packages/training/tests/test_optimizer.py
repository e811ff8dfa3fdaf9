"""Optimizer machinery: hyperparameters, update rules, hooks, update(),
epochs, loss scaling and serialization with exact resume."""
import io
import warnings

import numpy
import pytest

from kusari.autograd import FunctionNode, Parameter, Variable
from kusari.autograd.graph_optimizations.static_graph import static_graph
from kusari.autograd.functions.math.sum import sum as f_sum
from kusari.links import Chain, Link
from kusari.serializers import (Deserializer, DictionarySerializer,
                                NpzDeserializer, load_npz, save_npz)
from kusari.training import optimizer, optimizer_hooks, optimizers


class Layer(Link):
    def __init__(self, seed, shape=(3, 4)):
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.W = Parameter(rng.randn(*shape).astype('f'))
            self.b = Parameter(rng.randn(shape[-1]).astype('f'))

    def forward(self, x):
        return x @ self.W + self.b


class Model(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = Layer(0)
            self.l2 = Layer(1, (4, 2))

    def forward(self, x):
        return self.l2(self.l1(x))


def _loss(model, x):
    return f_sum(model(x) * model(x))


def _x(seed=0):
    return numpy.random.RandomState(seed).randn(5, 3).astype('f')


# -- Hyperparameter ----------------------------------------------------

def test_hyperparameter_falls_back_to_parent():
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    parent.momentum = 0.9
    child = optimizer.Hyperparameter(parent)
    child.lr = 0.5
    assert child.lr == 0.5 and child.momentum == 0.9
    assert child.parent is parent
    parent.momentum = 0.8
    assert child.momentum == 0.8
    assert child.get_dict() == {'lr': 0.5, 'momentum': 0.8}
    assert repr(child) == 'Hyperparameter(lr=0.5, momentum=0.8)'
    with pytest.raises(AttributeError, match="'beta'"):
        child.beta


def test_hyperparameter_copies():
    import copy
    import pickle
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    child = optimizer.Hyperparameter(parent)
    for clone in (copy.deepcopy(child), pickle.loads(pickle.dumps(child))):
        assert clone.lr == 0.1 and clone.parent is not parent


def test_proxy_reads_and_writes_the_hyperparameter():
    opt = optimizers.MomentumSGD(lr=0.1)
    opt.lr = 0.2
    assert opt.hyperparam.lr == 0.2
    assert isinstance(optimizers.MomentumSGD.lr,
                      optimizer.HyperparameterProxy)


def test_rule_hyperparameter_follows_optimizer():
    model = Model()
    opt = optimizers.SGD(lr=0.1).setup(model)
    rule = model.l1.W.update_rule
    assert rule.hyperparam.lr == 0.1
    opt.lr = 0.3
    assert rule.hyperparam.lr == 0.3
    rule.hyperparam.lr = 0.0
    model.l1.W.grad = numpy.ones((3, 4), 'f')
    before = model.l1.W.array.copy()
    opt.update()
    numpy.testing.assert_array_equal(model.l1.W.array, before)


# -- UpdateRule --------------------------------------------------------

class CountingRule(optimizer.UpdateRule):
    def init_state(self, param):
        self.state['count'] = numpy.zeros_like(param.array)

    def update_core_cpu(self, param):
        if param.grad is None:
            return
        self.state['count'] += 1
        param.array -= param.grad


def test_rule_state_is_made_at_first_update():
    rule = CountingRule()
    param = Parameter(numpy.ones(3, 'f'))
    assert rule.state is None
    param.grad = numpy.ones(3, 'f')
    rule.update(param)
    rule.update(param)
    assert rule.t == 2
    numpy.testing.assert_array_equal(rule.state['count'], [2, 2, 2])
    numpy.testing.assert_array_equal(param.array, [-1, -1, -1])


def test_disabled_rule_does_nothing():
    rule = CountingRule()
    rule.enabled = False
    param = Parameter(numpy.ones(3, 'f'))
    param.grad = numpy.ones(3, 'f')
    rule.update(param)
    assert rule.t == 0 and rule.state is None
    numpy.testing.assert_array_equal(param.array, [1, 1, 1])


def test_rule_without_gradient_runs_no_update():
    rule = CountingRule()
    param = Parameter(numpy.ones(3, 'f'))
    rule.update(param)
    assert rule.t == 1
    numpy.testing.assert_array_equal(rule.state['count'], [0, 0, 0])


def test_update_core_is_called_for_every_parameter_as_in_chainer():
    # Without a gradient, and uninitialized (on its device, the host):
    # update_core_cpu decides; the built-in rules then do nothing.
    calls = []

    class Recording(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            calls.append(param.name)

    for param in (Parameter(numpy.ones(2, 'f'), name='no_grad'),
                  Parameter(name='uninitialized')):
        Recording().update(param)
        sgd = optimizers.SGD(lr=1.).create_update_rule()
        sgd.update(param)
        if param.array is not None:  # (unreadable while uninitialized)
            assert param.grad is None
    assert calls == ['no_grad', 'uninitialized']
    assert Recording().update_core_chainerx is not None


def test_fp32_update_of_an_uninitialized_float16_parameter():
    from kusari.array import initializers
    seen = []
    rule = optimizer.UpdateRule()
    rule.update_core = lambda param: seen.append(param)
    rule.use_fp32_update()
    param = Parameter(initializers.Zero(numpy.float16))
    rule.update(param)
    assert seen[0] is not param and seen[0].dtype == numpy.float32
    assert param.array is None and param.dtype == numpy.float16
    unknown = Parameter(lambda array: None)
    rule.update(unknown)
    assert seen[1] is unknown


def test_rule_hooks_order_and_timing():
    calls = []
    rule = CountingRule()

    def first(rule, param):
        calls.append(('first', param.array[0]))

    def after(rule, param):
        calls.append(('after', param.array[0]))

    class Named:
        name = 'named'
        timing = 'post'

        def __call__(self, rule, param):
            calls.append(('named', param.array[0]))

    rule.add_hook(after, timing='post')
    rule.add_hook(first)
    rule.add_hook(Named())
    param = Parameter(numpy.ones(1, 'f'))
    param.grad = numpy.ones(1, 'f')
    rule.update(param)
    assert calls == [('first', 1), ('after', 0), ('named', 0)]
    rule.remove_hook('after')
    with pytest.raises(KeyError, match="no hook named 'after'"):
        rule.remove_hook('after')
    with pytest.raises(KeyError, match='already registered'):
        rule.add_hook(first)


@pytest.mark.parametrize('hook, kwargs, error, match', [
    (3, {}, TypeError, 'must be callable'),
    (print, {'timing': 'later'}, ValueError, 'timing must be'),
    (type('NoName', (), {'__call__': lambda self, *a: None})(), {},
     ValueError, 'has no name'),
])
def test_add_hook_errors(hook, kwargs, error, match):
    with pytest.raises(error, match=match):
        CountingRule().add_hook(hook, **kwargs)
    opt = optimizers.SGD().setup(Model())
    with pytest.raises(error, match=match):
        opt.add_hook(hook, **kwargs)


def test_a_hook_whose_timing_is_not_pre_runs_after_as_in_chainer():
    calls = []

    class Odd:
        name = 'odd'
        timing = object()

        def __call__(self, rule, param):
            calls.append(param.array[0])
    rule = CountingRule()
    rule.add_hook(Odd())
    param = Parameter(numpy.ones(1, 'f'))
    param.grad = numpy.ones(1, 'f')
    rule.update(param)
    assert calls == [0]


def test_gradients_a_hook_clears_are_zeros_for_the_next_hook():
    seen = []
    model = Model()
    opt = optimizers.SGD(lr=1).setup(model)

    def clear(opt):
        for param in opt.target.params():
            param.cleargrad()

    def check(opt):
        seen.append(all(p.grad is not None for p in opt.target.params()))
    opt.add_hook(clear)
    opt.add_hook(check)
    opt.update(_loss, model, _x())
    assert seen == [True]


def test_abstract_rule_names_itself():
    param = Parameter(numpy.ones(1, 'f'))
    param.grad = numpy.ones(1, 'f')
    with pytest.raises(NotImplementedError, match='UpdateRule defines no'):
        optimizer.UpdateRule().update(param)


# -- Optimizer ---------------------------------------------------------

def test_setup_requires_a_link():
    # Chainer's wording, which its tests match
    with pytest.raises(TypeError, match='optimization target must be a link '
                                        r'\(a Link\), got int'):
        optimizers.SGD().setup(3)


def test_methods_before_setup_raise():
    opt = optimizers.SGD()
    with pytest.raises(RuntimeError, match='not set up'):
        opt.add_hook(lambda o: None, name='h')
    with pytest.raises(RuntimeError, match='not set up'):
        opt.update()


def test_update_with_loss_function_matches_manual_backward():
    x = _x()
    model_a, model_b = Model(), Model()
    opt_a = optimizers.MomentumSGD(lr=0.01).setup(model_a)
    opt_b = optimizers.MomentumSGD(lr=0.01).setup(model_b)
    for _ in range(3):
        opt_a.update(_loss, model_a, x)
        model_b.cleargrads()
        _loss(model_b, x).backward()
        opt_b.update()
    for (_, a), (_, b) in zip(model_a.namedparams(), model_b.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array)
    assert opt_a.t == 3


def test_missing_gradients_become_zeros_and_still_update():
    model = Model()
    opt = optimizers.MomentumSGD(lr=0.1).setup(model)
    opt.update(_loss, model, _x())
    velocity = model.l1.W.update_rule.state['v'].copy()
    before = model.l1.W.array.copy()
    model.cleargrads()
    opt.update()
    numpy.testing.assert_array_equal(model.l1.W.grad, 0)
    numpy.testing.assert_allclose(model.l1.W.array, before + 0.9 * velocity,
                                  rtol=1e-6)


def test_optimizer_hooks_timing_and_per_param():
    model = Model()
    opt = optimizers.SGD().setup(model)
    calls = []

    def once(opt):
        calls.append(('once', opt.t))

    class PerParam:
        name = 'per_param'
        call_for_each_param = True
        timing = 'post'

        def __call__(self, rule, param):
            calls.append(('param', rule.t))

    opt.add_hook(once)
    opt.add_hook(PerParam())
    opt.update(_loss, model, _x())
    assert calls == [('once', 0)] + [('param', 1)] * 4
    opt.remove_hook('once')
    with pytest.raises(KeyError):
        opt.remove_hook('once')


def test_new_epoch():
    opt = optimizers.SGD().setup(Model())
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError, match='use_auto_new_epoch'):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError, match='already calls new_epoch'):
        opt.new_epoch()
    assert opt.epoch == 2


def test_use_cleargrads_is_deprecated():
    with pytest.warns(DeprecationWarning):
        optimizers.SGD().use_cleargrads()


# -- loss scaling ------------------------------------------------------

def test_static_loss_scale_does_not_change_the_update():
    x = _x()
    model_a, model_b = Model(), Model()
    opt_a = optimizers.Adam().setup(model_a)
    opt_b = optimizers.Adam().setup(model_b)
    opt_b.set_loss_scale(128.0)
    for _ in range(3):
        opt_a.update(_loss, model_a, x)
        opt_b.update(_loss, model_b, x)
    for (_, a), (_, b) in zip(model_a.namedparams(), model_b.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array)


def test_update_divides_by_the_scale_of_the_backward_that_made_grads():
    # As in Chainer: update() without a loss function divides each
    # gradient by the loss scale of its backward pass, not the optimizer's.
    model = Model()
    before = model.l1.W.array.copy()
    opt = optimizers.SGD(lr=1.0).setup(model)
    opt.set_loss_scale(4.0)
    model.cleargrads()
    _loss(model, _x()).backward(loss_scale=4.0)
    scaled = model.l1.W.grad.copy()
    opt.update()
    numpy.testing.assert_allclose(model.l1.W.array, before - scaled / 4,
                                  rtol=1e-6)
    model.cleargrads()
    _loss(model, _x()).backward()
    unscaled = model.l1.W.grad.copy()
    after_first = model.l1.W.array.copy()
    opt.update()
    numpy.testing.assert_allclose(model.l1.W.array,
                                  after_first - unscaled, rtol=1e-6)


def test_loss_scale_arguments_are_checked():
    opt = optimizers.SGD().setup(Model())
    with pytest.raises(ValueError, match='positive'):
        opt.set_loss_scale(-1)
    with pytest.raises(ValueError, match='interval'):
        opt.loss_scaling(interval=0)


def test_dynamic_loss_scaling_grows_backs_off_and_skips():
    model = Model()
    opt = optimizers.SGD(lr=0.01).setup(model)
    opt.loss_scaling(interval=2)
    x = _x()
    scales = []
    for _ in range(3):
        opt.update(_loss, model, x)
        scales.append(opt._loss_scale)
    assert scales == [2.0, 4.0, 8.0]
    before = {path: p.array.copy() for path, p in model.namedparams()}
    with pytest.warns(RuntimeWarning, match='non-finite gradient in /l1/W'):
        opt.update(lambda: _loss(model, x) * numpy.float32(numpy.inf))
    for path, param in model.namedparams():
        numpy.testing.assert_array_equal(param.array, before[path])
    assert opt._loss_scale == 4.0
    assert model.l1.W.update_rule.t == 3 and opt.t == 4
    opt.update(_loss, model, x)
    assert opt._loss_scale == pytest.approx(4.0 * 2 ** 0.5)


# -- serialization -----------------------------------------------------

def _train(model, opt, steps, seed):
    for step in range(steps):
        opt.update(_loss, model, _x(seed + step))


OPTIMIZERS = [
    lambda: optimizers.Adam(amsgrad=True),
    lambda: optimizers.AdaBound(),
    lambda: optimizers.MomentumSGD(lr=1e-3),
    lambda: optimizers.SMORMS3(),
    lambda: optimizers.RMSpropGraves(),
    lambda: optimizers.MSVAG(lr=1e-3),
]


@pytest.mark.parametrize('make', OPTIMIZERS)
def test_resume_continues_bit_for_bit(make, tmp_path):
    model, opt = Model(), make()
    opt.setup(model)
    _train(model, opt, 6, seed=0)

    first, first_opt = Model(), make()
    first_opt.setup(first)
    _train(first, first_opt, 3, seed=0)
    save_npz(tmp_path / 'model.npz', first)
    save_npz(tmp_path / 'opt.npz', first_opt)

    resumed, resumed_opt = Model(), make()
    resumed_opt.setup(resumed)
    load_npz(tmp_path / 'model.npz', resumed)
    load_npz(tmp_path / 'opt.npz', resumed_opt)
    assert resumed_opt.t == 3
    _train(resumed, resumed_opt, 3, seed=3)
    for (_, a), (_, b) in zip(model.namedparams(), resumed.namedparams()):
        assert numpy.isfinite(a.array).all()
        numpy.testing.assert_array_equal(a.array, b.array)
    for (_, a), (_, b) in zip(model.namedparams(), resumed.namedparams()):
        for key in a.update_rule.state:
            numpy.testing.assert_array_equal(a.update_rule.state[key],
                                             b.update_rule.state[key])


def test_saved_keys_follow_parameter_paths():
    model = Model()
    opt = optimizers.Adam().setup(model)
    opt.update(_loss, model, _x())
    opt.new_epoch()
    stream = io.BytesIO()
    save_npz(stream, opt)
    stream.seek(0)
    keys = sorted(numpy.load(stream).files)
    assert keys == sorted(
        ['t', 'epoch'] + [f'{layer}/{p}/{k}' for layer in ('l1', 'l2')
                          for p in ('W', 'b') for k in ('m', 'v', 't')])


def test_state_round_trip_into_existing_state_is_exact(tmp_path):
    model = Model()
    opt = optimizers.RMSprop().setup(model)
    _train(model, opt, 2, seed=0)
    save_npz(tmp_path / 'opt.npz', opt)
    saved = model.l1.W.update_rule.state['ms'].copy()
    _train(model, opt, 2, seed=5)
    load_npz(tmp_path / 'opt.npz', opt)
    numpy.testing.assert_array_equal(model.l1.W.update_rule.state['ms'],
                                     saved)
    assert opt.t == 2


def test_snapshot_before_first_update_loads(tmp_path):
    opt = optimizers.Adam().setup(Model())
    save_npz(tmp_path / 'opt.npz', opt)
    fresh = optimizers.Adam().setup(Model())
    load_npz(tmp_path / 'opt.npz', fresh)
    assert fresh.target.l1.W.update_rule.state is None
    fresh.update(_loss, fresh.target, _x())


def test_snapshot_of_another_optimizer_is_refused(tmp_path):
    model = Model()
    opt = optimizers.MomentumSGD().setup(model)
    opt.update(_loss, model, _x())
    save_npz(tmp_path / 'opt.npz', opt)
    other = optimizers.Adam().setup(Model())
    with pytest.raises(KeyError, match=r"has the state entries \['v'\] but "
                       r"not \['m'\]"):
        load_npz(tmp_path / 'opt.npz', other)


def test_partial_snapshot_of_a_disabled_rule_or_with_none_loads_no_state():
    # As in Chainer: a disabled rule, or a deserializer answering None for
    # an entry, leaves the state to be made at the next update.
    rule = optimizers.Adam().create_update_rule()
    rule.enabled = False
    rule.serialize(NpzDeserializer({'t': numpy.array(3),
                                    'v': numpy.ones(1, 'f')}))
    assert rule.t == 3 and rule.state is None

    class Lenient(NpzDeserializer):
        def __call__(self, key, value):
            return None if key == 'm' else super().__call__(key, value)
    rule = optimizers.Adam().create_update_rule()
    rule.serialize(Lenient({'t': numpy.array(2), 'v': numpy.ones(1, 'f')}))
    assert rule.t == 2 and rule.state is None


def test_state_entries_of_an_init_state_set_on_the_rule_load():
    # Chainer's tests set init_state on the instance, filling rule.state.
    rule = optimizer.UpdateRule()

    def init_state(param):
        rule.state['a'] = numpy.zeros(1, 'f')
    rule.init_state = init_state
    rule.serialize(NpzDeserializer({'t': numpy.array(1),
                                    'a': numpy.full(1, 7, 'f')}))
    assert rule.state['a'] == 7


def test_dynamic_loss_scale_is_saved(tmp_path):
    model = Model()
    opt = optimizers.SGD().setup(model)
    opt.loss_scaling()
    _train(model, opt, 3, seed=0)
    save_npz(tmp_path / 'opt.npz', opt)
    fresh = optimizers.SGD().setup(Model())
    fresh.loss_scaling()
    load_npz(tmp_path / 'opt.npz', fresh)
    assert fresh._loss_scale == opt._loss_scale == 8.0


def test_fp32_master_copy_is_saved(tmp_path):
    def make():
        link = Layer(0)
        for param in link.params():
            param.array = param.array.astype(numpy.float16)
        opt = optimizers.Adam()
        opt.use_fp32_update()
        return link, opt.setup(link)

    def step(link, opt, seed):
        rng = numpy.random.RandomState(seed)
        for param in link.params():
            param.grad = rng.randn(*param.shape).astype(numpy.float16)
        opt.update()

    link, opt = make()
    for seed in range(4):
        step(link, opt, seed)
    half, half_opt = make()
    for seed in range(2):
        step(half, half_opt, seed)
    save_npz(tmp_path / 'opt.npz', half_opt)
    save_npz(tmp_path / 'link.npz', half)
    resumed, resumed_opt = make()
    load_npz(tmp_path / 'link.npz', resumed)
    load_npz(tmp_path / 'opt.npz', resumed_opt)
    for seed in (2, 3):
        step(resumed, resumed_opt, seed)
    for a, b in zip(link.params(), resumed.params()):
        numpy.testing.assert_array_equal(a.array, b.array)


def test_serialize_requires_setup():
    with pytest.raises(RuntimeError, match='not set up'):
        save_npz(io.BytesIO(), optimizers.SGD())


def test_no_warning_on_plain_update():
    model = Model()
    opt = optimizers.Adam().setup(model)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        opt.update(_loss, model, _x())


def _adabound_step(alpha_before_update):
    model = Model()
    opt = optimizers.AdaBound(alpha=0.01, final_lr=0.1).setup(model)
    opt.alpha = alpha_before_update
    opt.update(_loss, model, _x())
    return model.l1.W.update_rule


def test_adabound_bounds_scale_from_alpha_at_setup():
    # As in Chainer: initial_alpha is alpha when the rule was made, so
    # changing alpha before the first update already scales final_lr.
    rule = _adabound_step(0.05)
    assert rule.initial_alpha == 0.01
    bounds = rule.scalars(None)
    assert bounds['lower'] == pytest.approx(0.5 * (1 - 1 / (1e-3 + 1)))
    assert bounds['upper'] == pytest.approx(0.5 * (1 + 1 / 1e-3))


def test_adabound_resumes_chainer_snapshot_without_initial_alpha():
    # A Chainer snapshot has no initial_alpha: the resumed rule keeps the
    # alpha it was made with, not the alpha of its first update.
    rule = _adabound_step(0.01)
    saved = {}
    rule.serialize(DictionarySerializer(saved))
    del saved['initial_alpha']
    model = Model()
    opt = optimizers.AdaBound(alpha=0.01).setup(model)
    resumed = model.l1.W.update_rule
    resumed.serialize(NpzDeserializer(saved))
    opt.alpha = 0.05
    opt.update(_loss, model, _x())
    assert resumed.initial_alpha == 0.01


def test_update_core_chainerx_is_the_numpy_cupy_update():
    calls = []

    class Rule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            calls.append(param)

    param = Parameter(numpy.ones(2, numpy.float32))
    param.grad = numpy.ones(2, numpy.float32)
    rule = Rule()
    rule.update_core_chainerx(param)
    assert calls == [param]


class _DictLoader(Deserializer):
    """Returns the stored value, None or KeyError for a missing one."""

    def __init__(self, target, strict=True):
        self.target, self.strict = target, strict

    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        if key not in self.target and not self.strict:
            return None
        return self.target[key]


def test_rule_state_loads_as_chainer_does():
    def make():
        rule = CountingRule()

        def init_state(param):  # fills the state of the rule it is set on
            rule.state['count'] = numpy.zeros(1, 'f')
            rule.state['other'] = numpy.zeros(1, 'f')
        rule.init_state = init_state
        return rule

    full = {'t': 3, 'count': numpy.ones(1, 'f'), 'other': numpy.ones(1, 'f')}
    rule = make()
    rule.serialize(_DictLoader(full))
    assert rule.t == 3 and set(rule.state) == {'count', 'other'}
    partial = {'t': 3, 'count': numpy.ones(1, 'f')}
    with pytest.raises(KeyError):
        make().serialize(_DictLoader(partial))
    rule = make()
    rule.serialize(_DictLoader(partial, strict=False))
    assert rule.state is None
    rule = make()
    rule.enabled = False
    rule.serialize(_DictLoader(partial))
    assert rule.state is None


# -- updates inside the backward of static replays ----------------------

class StaticModel(Model):
    @static_graph
    def forward(self, x):
        return Model.forward(self, x)


class _Probe(FunctionNode):
    """Identity whose backward, which runs after the model's, notes the
    array of the parameter it watches."""

    def __init__(self, param):
        self.param = param
        self.seen = None

    def forward(self, inputs):
        return inputs[0].copy(),

    def backward(self, indexes, grad_outputs):
        self.seen = self.param.array.copy()
        return grad_outputs


def _train_through_lossfun(model, steps=4, configure=lambda opt: None):
    """``steps`` updates of ``update(lossfun)``, the model called twice in
    each; per step, whether the first layer's weight had changed by the
    time the backward passed the model's input."""
    opt = optimizers.Adam(alpha=0.01).setup(model)
    configure(opt)
    changed = []
    for step in range(steps):
        W = model.l1.W
        probe = _Probe(W)
        before = W.array.copy()

        def lossfun():
            h, = probe.apply((Variable(_x(step)),))
            return _loss(model, h)

        opt.update(lossfun)
        changed.append(not numpy.array_equal(probe.seen, before))
    return opt, changed


def _pairs(a, b):
    """``(name, parameter of a, parameter of b)`` for each parameter name
    of the links a and b (which have the same ones)."""
    return [(name, p, q) for (name, p), (_, q)
            in zip(sorted(a.namedparams()), sorted(b.namedparams()))]


def _same_parameters(a, b):
    for name, p, q in _pairs(a, b):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)


def test_replays_update_their_parameters_inside_backward():
    static_opt, static_changed = _train_through_lossfun(StaticModel())
    dynamic_opt, dynamic_changed = _train_through_lossfun(Model())
    # Both calls of the first step record; from the second step on, the
    # second call replays (its schedule was checked against the first's),
    # and the parameters a replay reads are updated as soon as the last
    # function reading them has run its backward.
    assert static_changed == [False, True, True, True]
    assert dynamic_changed == [False] * 4
    assert static_opt.t == dynamic_opt.t == 4
    _same_parameters(static_opt.target, dynamic_opt.target)
    for _, p, q in _pairs(static_opt.target, dynamic_opt.target):
        assert p.update_rule.t == q.update_rule.t == 4
        numpy.testing.assert_array_equal(p.update_rule.state['v'],
                                         q.update_rule.state['v'])


@pytest.mark.parametrize('configure', [
    lambda opt: opt.add_hook(optimizer_hooks.WeightDecay(0.1)),
    lambda opt: opt.loss_scaling(scale=4.0),
    lambda opt: opt.loss_scaling(),
    lambda opt: opt.target.l1.W.update_rule.add_hook(
        optimizer_hooks.GradientHardClipping(-0.5, 0.5)),
], ids=['optimizer hook', 'loss scale', 'dynamic loss scale', 'rule hook'])
def test_updates_wait_for_the_backward_where_a_hook_needs_it(configure):
    # Each needs the gradients before any update, or changes one in place.
    static_opt, static_changed = _train_through_lossfun(
        StaticModel(), configure=configure)
    dynamic_opt, _ = _train_through_lossfun(Model(), configure=configure)
    assert static_changed == [False] * 4
    _same_parameters(static_opt.target, dynamic_opt.target)


def test_without_lossfun_updates_wait_for_the_call():
    model = StaticModel()
    opt = optimizers.SGD(lr=0.1).setup(model)
    for step in range(4):
        before = model.l1.W.array.copy()
        model.cleargrads()
        _loss(model, _x(step)).backward()
        numpy.testing.assert_array_equal(model.l1.W.array, before)
        opt.update()
        assert not numpy.array_equal(model.l1.W.array, before)
