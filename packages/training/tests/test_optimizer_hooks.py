"""Optimizer hooks against NumPy transcriptions of their formulas."""
import numpy
import pytest

from kusari.autograd import Parameter
from kusari.links import Link
from kusari.training import optimizer, optimizer_hooks, optimizers


class TwoParams(Link):
    def __init__(self):
        super().__init__()
        rng = numpy.random.RandomState(0)
        with self.init_scope():
            self.w = Parameter(rng.randn(3, 4))
            self.b = Parameter(rng.randn(4))


def _grads():
    rng = numpy.random.RandomState(1)
    return {'w': rng.randn(3, 4) * 2, 'b': rng.randn(4) * 2}


def _run_sgd(hook, lr=0.1):
    """One SGD step with ``hook`` added; returns (link before, after)."""
    link = TwoParams()
    before = {name: getattr(link, name).array.copy() for name in 'wb'}
    opt = optimizers.SGD(lr=lr).setup(link)
    opt.add_hook(hook)
    grads = _grads()
    for name in 'wb':
        getattr(link, name).grad = grads[name].copy()
    opt.update()
    return before, grads, {name: getattr(link, name).array for name in 'wb'}


def _expect_sgd(before, effective_grads, after, lr=0.1):
    for name in 'wb':
        numpy.testing.assert_allclose(
            after[name], before[name] - lr * effective_grads[name],
            rtol=1e-13)


def test_weight_decay():
    before, grads, after = _run_sgd(optimizer_hooks.WeightDecay(0.05))
    _expect_sgd(before, {k: grads[k] + 0.05 * before[k] for k in 'wb'},
                after)


def test_lasso():
    before, grads, after = _run_sgd(optimizer_hooks.Lasso(0.05))
    _expect_sgd(before,
                {k: grads[k] + 0.05 * numpy.sign(before[k]) for k in 'wb'},
                after)


@pytest.mark.parametrize('threshold', [0.5, 1e3])
def test_gradient_clipping(threshold):
    before, grads, after = _run_sgd(
        optimizer_hooks.GradientClipping(threshold))
    norm = numpy.sqrt(sum((g ** 2).sum() for g in grads.values()))
    scale = min(1.0, threshold / norm)
    _expect_sgd(before, {k: grads[k] * scale for k in 'wb'}, after)


def test_gradient_hard_clipping():
    before, grads, after = _run_sgd(
        optimizer_hooks.GradientHardClipping(-0.5, 1.0))
    _expect_sgd(before, {k: numpy.clip(grads[k], -0.5, 1.0) for k in 'wb'},
                after)


def test_gradient_hard_clipping_refuses_crossed_bounds():
    with pytest.raises(ValueError, match='lower_bound'):
        optimizer_hooks.GradientHardClipping(1.0, -1.0)


@pytest.mark.parametrize('threshold', [1e-2, 1e3])
def test_gradient_lars(threshold):
    hook = optimizer_hooks.GradientLARS(threshold=threshold,
                                        weight_decay=0.01)
    before, grads, after = _run_sgd(hook)
    expected = {}
    for k in 'wb':
        p_norm = numpy.linalg.norm(before[k])
        g_norm = numpy.linalg.norm(grads[k])
        rate = p_norm / (1e-9 + g_norm + 0.01 * p_norm) \
            if p_norm > threshold else 1.0
        expected[k] = (grads[k] + 0.01 * before[k]) * rate
    _expect_sgd(before, expected, after)


def test_gradient_noise_default_variance():
    numpy.random.seed(3)
    before, grads, after = _run_sgd(optimizer_hooks.GradientNoise(0.3))
    numpy.random.seed(3)
    # The hook runs before the rules update, at t = 0 of each rule, and
    # visits the parameters in the link's (sorted) order.
    std = numpy.sqrt(0.3 / (1 + 0) ** 0.55)
    noise = {'b': numpy.random.normal(0, std, (4,))}
    noise['w'] = numpy.random.normal(0, std, (3, 4))
    _expect_sgd(before, {k: grads[k] + noise[k] for k in 'wb'}, after)


def test_gradient_noise_custom_function_gets_the_rule():
    seen = []

    def noise(xp, shape, dtype, hook, rule):
        seen.append((shape, dtype, rule.t))
        return xp.full(shape, 0.25, dtype)

    link = TwoParams()
    opt = optimizers.SGD(lr=1.0).setup(link)
    link.w.update_rule.add_hook(optimizer_hooks.GradientNoise(1, noise))
    before = link.w.array.copy()
    link.w.grad = numpy.zeros((3, 4))
    link.b.grad = numpy.zeros(4)
    opt.update()
    # As a rule hook it runs inside the rule's update: t is already 1.
    assert seen == [((3, 4), numpy.float64, 1)]
    numpy.testing.assert_array_equal(link.w.array, before - 0.25)


def test_post_timing_runs_after_the_update():
    link = TwoParams()
    opt = optimizers.SGD(lr=0.1).setup(link)
    opt.add_hook(optimizer_hooks.WeightDecay(0.05), timing='post')
    grads = _grads()
    before = link.w.array.copy()
    link.w.grad = grads['w'].copy()
    link.b.grad = grads['b'].copy()
    opt.update()
    after = before - 0.1 * grads['w']
    numpy.testing.assert_allclose(link.w.array, after, rtol=1e-13)
    numpy.testing.assert_allclose(link.w.grad, grads['w'] + 0.05 * after,
                                  rtol=1e-13)


def test_hooks_skip_missing_gradients():
    param = Parameter(numpy.ones(3))
    for hook in (optimizer_hooks.WeightDecay(1), optimizer_hooks.Lasso(1),
                 optimizer_hooks.GradientHardClipping(0, 1),
                 optimizer_hooks.GradientNoise(1),
                 optimizer_hooks.GradientLARS()):
        hook(None, param)
        assert param.grad is None


@pytest.mark.parametrize('name, args', [
    ('WeightDecay', (0.1,)), ('Lasso', (0.1,)), ('GradientClipping', (1.,)),
    ('GradientHardClipping', (-1., 1.)), ('GradientNoise', (0.1,))])
def test_hooks_importable_from_optimizer_module_are_deprecated(name, args):
    # As in Chainer 7: chainer.optimizer.WeightDecay(...) works and warns.
    with pytest.warns(DeprecationWarning,
                      match=f'chainer.optimizer.{name} is deprecated'):
        hook = getattr(optimizer, name)(*args)
    assert isinstance(hook, getattr(optimizer_hooks, name))
    assert hook.name == name


@pytest.mark.parametrize('hook_class, args', [
    (optimizer_hooks.WeightDecay, (0.1,)),
    (optimizer_hooks.Lasso, (0.1,)),
    (optimizer_hooks.GradientHardClipping, (-0.1, 0.1)),
    (optimizer_hooks.GradientLARS, ()),
])
def test_documented_attributes(hook_class, args):
    hook = hook_class(*args)
    assert hook.timing == 'pre'
    assert hook.call_for_each_param is True
    assert hook.name == hook_class.__name__


def test_hooks_see_the_gradients_an_earlier_hook_cleared_as_zeros():
    seen = []

    class Clear:
        name = 'Clear'
        timing = 'pre'

        def __call__(self, opt):
            for param in opt.target.params():
                param.cleargrad()

    class Look:
        name = 'Look'
        timing = 'pre'

        def __call__(self, opt):
            seen.extend(param.grad for param in opt.target.params())

    model = TwoParams()
    for param in model.params():
        param.grad = numpy.ones_like(param.array)
    opt = optimizers.SGD(lr=1)
    opt.setup(model)
    opt.add_hook(Clear())
    opt.add_hook(Look())
    opt.update()
    assert seen and all(g is not None and not g.any() for g in seen)
