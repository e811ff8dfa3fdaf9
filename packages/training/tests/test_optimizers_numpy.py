"""Every optimizer against a plain NumPy transcription of its documented
update rule, a few steps on a fixed problem."""
import ctypes
import math
import os
import shutil
import subprocess
import sys
import textwrap
import tracemalloc

import numpy
import pytest

from kusari.array import jit
from kusari.autograd import Parameter
from kusari.links import Link
from kusari.training import optimizers
from kusari.training.optimizers import _elementwise, _formula, _fused_cpu

SHAPE = (3, 4)
STEPS = 5


def _grads(seed=1):
    rng = numpy.random.RandomState(seed)
    grads = [rng.randn(*SHAPE) for _ in range(STEPS)]
    grads[2][0] = 0  # a row with zero gradient at one step
    return grads


def _initial():
    return numpy.random.RandomState(0).randn(*SHAPE)


# Each reference takes (param, grads, **hyperparameters), all float64, and
# returns the parameter after the steps.

def ref_sgd(p, grads, lr=0.01):
    for g in grads:
        p = p - lr * g
    return p


def ref_momentum_sgd(p, grads, lr=0.01, momentum=0.9):
    v = numpy.zeros_like(p)
    for g in grads:
        v = momentum * v - lr * g
        p = p + v
    return p


def ref_corrected_momentum_sgd(p, grads, lr=0.01, momentum=0.9):
    v = numpy.zeros_like(p)
    for g in grads:
        v = momentum * v - g
        p = p + lr * v
    return p


def ref_nesterov_ag(p, grads, lr=0.01, momentum=0.9):
    v = numpy.zeros_like(p)
    for g in grads:
        v = momentum * v - lr * g
        p = p + momentum ** 2 * v - (1 + momentum) * lr * g
    return p


def ref_ada_grad(p, grads, lr=0.001, eps=1e-8):
    h = numpy.zeros_like(p)
    for g in grads:
        h = h + g ** 2
        p = p - lr * g / (numpy.sqrt(h) + eps)
    return p


def ref_ada_delta(p, grads, rho=0.95, eps=1e-6):
    msg = numpy.zeros_like(p)
    msdx = numpy.zeros_like(p)
    for g in grads:
        msg = rho * msg + (1 - rho) * g ** 2
        dx = numpy.sqrt((msdx + eps) / (msg + eps)) * g
        msdx = rho * msdx + (1 - rho) * dx ** 2
        p = p - dx
    return p


def ref_rmsprop(p, grads, lr=0.01, alpha=0.99, eps=1e-8,
                eps_inside_sqrt=False):
    ms = numpy.zeros_like(p)
    for g in grads:
        ms = alpha * ms + (1 - alpha) * g ** 2
        denom = numpy.sqrt(ms + eps) if eps_inside_sqrt \
            else numpy.sqrt(ms) + eps
        p = p - lr * g / denom
    return p


def ref_rmsprop_graves(p, grads, lr=1e-4, alpha=0.95, momentum=0.9,
                       eps=1e-4):
    n = numpy.zeros_like(p)
    avg = numpy.zeros_like(p)
    delta = numpy.zeros_like(p)
    for g in grads:
        n = alpha * n + (1 - alpha) * g ** 2
        avg = alpha * avg + (1 - alpha) * g
        delta = momentum * delta - lr * g / numpy.sqrt(n - avg ** 2 + eps)
        p = p + delta
    return p


def ref_smorms3(p, grads, lr=0.001, eps=1e-16):
    mem = numpy.ones_like(p)
    avg = numpy.zeros_like(p)
    avg2 = numpy.zeros_like(p)
    for g in grads:
        r = 1 / (mem + 1)
        avg = (1 - r) * avg + r * g
        avg2 = (1 - r) * avg2 + r * g ** 2
        x = avg ** 2 / (avg2 + eps)
        p = p - g * numpy.minimum(lr, x) / (numpy.sqrt(avg2) + eps)
        mem = 1 + mem * (1 - x)
    return p


def ref_adam(p, grads, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8,
             eta=1.0, weight_decay_rate=0, amsgrad=False, adabound=False,
             final_lr=0.1, gamma=1e-3):
    m = numpy.zeros_like(p)
    v = numpy.zeros_like(p)
    vhat = numpy.zeros_like(p)
    for t, g in enumerate(grads, 1):
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g ** 2
        vhat = numpy.maximum(vhat, v) if amsgrad else v
        alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        step = alpha_t / (numpy.sqrt(vhat) + eps)
        if adabound:
            step = numpy.clip(step, final_lr * (1 - 1 / (gamma * t + 1)),
                              final_lr * (1 + 1 / (gamma * t)))
        p = p - eta * (step * m + weight_decay_rate * p)
    return p


def ref_msvag(p, grads, lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0):
    m = numpy.zeros_like(p)
    v = numpy.zeros_like(p)
    for t, g in enumerate(grads, 1):
        m = beta * m + (1 - beta) * g
        v = beta * v + (1 - beta) * g ** 2
        mt = m / (1 - beta ** t)
        vt = v / (1 - beta ** t)
        rho = ((1 - beta) * (1 + beta ** t)
               / ((1 + beta) * (1 - beta ** t)))
        rho = min(rho, 0.9999)
        s = numpy.maximum(vt - mt ** 2, 0) / (1 - rho)
        with numpy.errstate(invalid='ignore'):
            factor = numpy.where(mt == 0, 0, mt ** 2 / (mt ** 2 + rho * s))
        p = p - eta * (lr * factor * mt + weight_decay_rate * p)
    return p


CASES = [
    ('SGD', ref_sgd, {}),
    ('SGD', ref_sgd, {'lr': 0.5}),
    ('MomentumSGD', ref_momentum_sgd, {}),
    ('MomentumSGD', ref_momentum_sgd, {'lr': 0.1, 'momentum': 0.5}),
    ('CorrectedMomentumSGD', ref_corrected_momentum_sgd, {}),
    ('NesterovAG', ref_nesterov_ag, {}),
    ('AdaGrad', ref_ada_grad, {}),
    ('AdaGrad', ref_ada_grad, {'lr': 0.1}),
    ('AdaDelta', ref_ada_delta, {}),
    ('RMSprop', ref_rmsprop, {}),
    ('RMSprop', ref_rmsprop, {'eps_inside_sqrt': True, 'eps': 1e-2}),
    ('RMSpropGraves', ref_rmsprop_graves, {}),
    ('SMORMS3', ref_smorms3, {}),
    ('SMORMS3', ref_smorms3, {'lr': 0.1}),
    ('Adam', ref_adam, {}),
    ('Adam', ref_adam, {'alpha': 0.01, 'eta': 0.5,
                        'weight_decay_rate': 0.1}),
    ('Adam', ref_adam, {'amsgrad': True, 'adabound': True}),
    ('AdamW', ref_adam, {'weight_decay_rate': 0.01}),
    ('AMSGrad', lambda p, g, **kw: ref_adam(p, g, amsgrad=True, **kw), {}),
    ('AdaBound', lambda p, g, **kw: ref_adam(p, g, adabound=True, **kw),
     {'final_lr': 0.002, 'gamma': 0.1}),
    ('AMSBound', lambda p, g, **kw: ref_adam(
        p, g, amsgrad=True, adabound=True, **kw), {}),
    ('MSVAG', ref_msvag, {}),
    ('MSVAG', ref_msvag, {'eta': 0.5, 'weight_decay_rate': 0.1}),
]

DEFAULTS = {
    'SGD': {'lr': 0.01},
    'MomentumSGD': {'lr': 0.01, 'momentum': 0.9},
    'CorrectedMomentumSGD': {'lr': 0.01, 'momentum': 0.9},
    'NesterovAG': {'lr': 0.01, 'momentum': 0.9},
    'AdaGrad': {'lr': 0.001, 'eps': 1e-8},
    'AdaDelta': {'rho': 0.95, 'eps': 1e-6},
    'RMSprop': {'lr': 0.01, 'alpha': 0.99, 'eps': 1e-8,
                'eps_inside_sqrt': False},
    'RMSpropGraves': {'lr': 1e-4, 'alpha': 0.95, 'momentum': 0.9,
                      'eps': 1e-4},
    'SMORMS3': {'lr': 0.001, 'eps': 1e-16},
    'Adam': {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
             'eta': 1.0, 'weight_decay_rate': 0, 'amsgrad': False,
             'adabound': False, 'final_lr': 0.1, 'gamma': 1e-3},
    'AdamW': {'alpha': 0.001, 'weight_decay_rate': 0, 'amsgrad': False},
    'AMSGrad': {'alpha': 0.001, 'amsgrad': True, 'adabound': False},
    'AdaBound': {'final_lr': 0.1, 'gamma': 1e-3, 'adabound': True,
                 'amsgrad': False},
    'AMSBound': {'adabound': True, 'amsgrad': True},
    'MSVAG': {'lr': 0.1, 'beta': 0.9, 'eta': 1.0, 'weight_decay_rate': 0},
}


def _require_numba():
    """Skip unless the fused loops can run (Numba installed, its JIT on)."""
    numba = pytest.importorskip('numba')
    if numba.config.DISABLE_JIT:
        pytest.skip('NUMBA_DISABLE_JIT is set')


class OneParam(Link):
    def __init__(self, array):
        super().__init__()
        with self.init_scope():
            self.w = Parameter(array)


@pytest.fixture(params=['fused', 'numpy'])
def cpu_path(request, monkeypatch):
    """Runs a test with the fused CPU kernels (skipped without Numba) and
    with the rules' NumPy updates."""
    if request.param == 'fused':
        _require_numba()
    else:
        monkeypatch.setattr(jit, 'numba_module', lambda: None)
        monkeypatch.setattr(_fused_cpu, '_compiled', {})
    return request.param


def _rtol(name, dtype, rtol):
    """``rtol``, or MSVAG's in float32: at the first step vt - mt ** 2 is
    a rounding error, which s = (vt - mt ** 2) / (1 - rho) multiplies by
    1e4 (the GPU's fused multiply-adds round it otherwise again)."""
    return 1e-3 if name == 'MSVAG' and dtype == numpy.float32 else rtol


def _run(name, kwargs, dtype, grads=None):
    link = OneParam(_initial().astype(dtype))
    opt = getattr(optimizers, name)(**kwargs).setup(link)
    for g in _grads() if grads is None else grads:
        link.w.grad = g.astype(dtype)
        opt.update()
    return link.w.array


@pytest.mark.parametrize('name, reference, kwargs', CASES)
@pytest.mark.parametrize('dtype, rtol', [(numpy.float64, 1e-12),
                                         (numpy.float32, 2e-5)])
def test_matches_numpy_transcription(name, reference, kwargs, dtype, rtol,
                                     cpu_path):
    expected = reference(_initial(), _grads(), **kwargs)
    actual = _run(name, kwargs, dtype)
    rtol = _rtol(name, dtype, rtol)
    assert actual.dtype == dtype
    numpy.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol)


# MSVAG's float16 moments lose what s = (vt - mt ** 2) / (1 - rho) needs;
# it is covered by the float32 update below.
@pytest.mark.parametrize('name, reference, kwargs',
                         [case for case in CASES if case[0] != 'MSVAG'])
def test_float16_follows_the_rule(name, reference, kwargs):
    expected = reference(_initial(), _grads(), **kwargs)
    actual = _run(name, kwargs, numpy.float16)
    assert actual.dtype == numpy.float16
    numpy.testing.assert_allclose(actual, expected, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize('name, reference, kwargs', CASES)
def test_fp32_update_of_float16_equals_float32_run(name, reference,
                                                 kwargs):
    grads = [g.astype(numpy.float16) for g in _grads()]
    initial = _initial().astype(numpy.float16)
    link = OneParam(initial.astype(numpy.float32))
    opt = getattr(optimizers, name)(**kwargs).setup(link)
    link16 = OneParam(initial.copy())
    opt16 = getattr(optimizers, name)(**kwargs)
    opt16.use_fp32_update()
    opt16.setup(link16)
    for g in grads:
        link.w.grad = g.astype(numpy.float32)
        opt.update()
        link16.w.grad = g.copy()
        opt16.update()
    for value in (link16.w.update_rule.state or {}).values():
        assert value.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        link16.w.array, link.w.array.astype(numpy.float16))



@pytest.mark.parametrize('name', sorted(DEFAULTS))
def test_documented_defaults(name):
    opt = getattr(optimizers, name)()
    for key, value in DEFAULTS[name].items():
        assert getattr(opt.hyperparam, key) == value, key
        assert getattr(opt, key) == value, key


@pytest.mark.parametrize('name', sorted(DEFAULTS))
def test_rule_alone_uses_the_defaults(name):
    rule_class = type(getattr(optimizers, name)().create_update_rule())
    rule = rule_class()
    for key, value in DEFAULTS[name].items():
        if key in ('amsgrad', 'adabound') or name in (
                'AdamW', 'AMSGrad', 'AdaBound', 'AMSBound'):
            continue  # the variants' flags live on the optimizer
        assert getattr(rule.hyperparam, key) == value


def test_rule_constructor_overrides_only_what_it_gets():
    rule = optimizers.MomentumSGDRule(lr=0.5)
    assert rule.hyperparam.lr == 0.5
    assert rule.hyperparam.momentum == 0.9


def test_zero_gradient_keeps_msvag_finite():
    grads = [numpy.zeros(SHAPE)] * 3
    actual = _run('MSVAG', {}, numpy.float32, grads)
    numpy.testing.assert_array_equal(actual, _initial().astype('f'))


def test_adam_lr_and_alpha_t():
    link = OneParam(_initial().astype('f'))
    opt = optimizers.Adam(alpha=0.01, beta1=0.8, beta2=0.9).setup(link)
    with pytest.raises(RuntimeError, match='before the first update'):
        opt.alpha_t
    for g in _grads()[:3]:
        link.w.grad = g.astype('f')
        opt.update()
    expected = 0.01 * math.sqrt(1 - 0.9 ** 3) / (1 - 0.8 ** 3)
    assert opt.alpha_t == pytest.approx(expected, rel=1e-15)
    assert link.w.update_rule.alpha_t == pytest.approx(expected, rel=1e-15)
    with pytest.warns(DeprecationWarning, match='alpha_t'):
        assert opt.lr == opt.alpha_t
    with pytest.warns(DeprecationWarning, match='alpha_t'):
        assert link.w.update_rule.lr == opt.alpha_t


def test_amsgrad_keeps_vhat_state():
    link = OneParam(_initial().astype('f'))
    opt = optimizers.AMSGrad().setup(link)
    link.w.grad = numpy.ones(SHAPE, 'f')
    opt.update()
    assert sorted(link.w.update_rule.state) == ['m', 'v', 'vhat']


def test_adabound_bounds_follow_alpha_changes():
    grads = _grads()
    link = OneParam(_initial())
    opt = optimizers.AdaBound(final_lr=0.002, gamma=0.1).setup(link)
    link.w.grad = grads[0].copy()
    opt.update()
    opt.alpha = 0.0005  # halves the final learning rate too
    link.w.grad = grads[1].copy()
    before = link.w.array.copy()
    opt.update()
    rule = link.w.update_rule
    m, v = rule.state['m'], rule.state['v']
    step = rule.alpha_t / (numpy.sqrt(v) + 1e-8)
    final_lr = 0.001
    step = numpy.clip(step, final_lr * (1 - 1 / (0.1 * 2 + 1)),
                      final_lr * (1 + 1 / (0.1 * 2)))
    numpy.testing.assert_allclose(link.w.array, before - step * m,
                                  rtol=1e-12)


@pytest.mark.parametrize('name', ['Adam', 'SMORMS3', 'AdaDelta',
                                  'RMSpropGraves', 'MSVAG', 'NesterovAG'])
def test_step_on_large_parameter_allocates_no_full_array(name, cpu_path):
    link = OneParam(numpy.ones((1000, 1000), numpy.float32))
    opt = getattr(optimizers, name)().setup(link)
    link.w.grad = numpy.full((1000, 1000), 0.5, numpy.float32)
    opt.update()  # the state and the scratch arrays are made here
    tracemalloc.start()
    try:
        opt.update()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, f'{name} allocated {peak} bytes in a step'


@pytest.mark.parametrize('name, reference, kwargs', CASES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_fused_kernel_is_numpy_update_bit_for_bit(monkeypatch, name,
                                                  reference, kwargs, dtype):
    _require_numba()
    rng = numpy.random.default_rng(2)
    initial = rng.standard_normal((37, 29)).astype(dtype)
    grads = rng.standard_normal((4,) + initial.shape).astype(dtype)
    grads[1, 3] = 0

    def run():
        link = OneParam(initial.copy())
        opt = getattr(optimizers, name)(**kwargs).setup(link)
        for g in grads:
            link.w.grad = g.copy()
            opt.update()
        rule = link.w.update_rule
        return rule, [link.w.array, *rule.state.values()]

    monkeypatch.setattr(_fused_cpu, '_compiled', {})
    rule, fused = run()
    assert _fused_cpu._compiled, 'the update did not run its Numba loop'
    monkeypatch.setattr(jit, 'numba_module', lambda: None)
    monkeypatch.setattr(_fused_cpu, '_compiled', {})
    for expected, actual in zip(fused, run()[1], strict=True):
        numpy.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize('name, reference, kwargs', CASES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('shape', [(37, 29), (4, 32), (33,)])
def test_blocked_update_is_whole_array_update_bit_for_bit(
        monkeypatch, name, reference, kwargs, dtype, shape):
    # Blocks of 32 compute-dtype values: 1073 values are 33 full blocks
    # and a part, 128 are four full ones, 33 one and a single value.
    monkeypatch.setattr(jit, 'numba_module', lambda: None)
    rng = numpy.random.default_rng(3)
    initial = rng.standard_normal(shape).astype(dtype)
    grads = rng.standard_normal((4,) + shape).astype(dtype)
    grads[1, 3] = 0
    scratch_sizes = []
    scratch = _elementwise._scratch

    def spied_scratch(shape, dtype, count):
        scratch_sizes.append(math.prod(shape))
        return scratch(shape, dtype, count)

    monkeypatch.setattr(_elementwise, '_scratch', spied_scratch)

    def run(block_bytes):
        monkeypatch.setattr(_elementwise, '_BLOCK_BYTES', block_bytes)
        scratch_sizes.clear()
        link = OneParam(initial.copy())
        opt = getattr(optimizers, name)(**kwargs).setup(link)
        with numpy.errstate(over='ignore', invalid='ignore'):
            for g in grads:
                link.w.grad = g.copy()
                opt.update()
        return [link.w.array, *link.w.update_rule.state.values()]

    whole = run(1 << 30)
    assert set(scratch_sizes) == {initial.size}
    block = 32 * _elementwise.compute_dtype(dtype).itemsize
    blocked = run(block)
    assert set(scratch_sizes) == {32}, 'the update was not blocked'
    for expected, actual in zip(whole, blocked, strict=True):
        assert actual.dtype == expected.dtype
        numpy.testing.assert_array_equal(actual, expected)


def test_blocked_update_takes_non_contiguous_arrays_whole(monkeypatch):
    # Blocks of flattened copies would update the copies alone.
    monkeypatch.setattr(jit, 'numba_module', lambda: None)
    monkeypatch.setattr(_elementwise, '_BLOCK_BYTES', 64)
    strided = OneParam(numpy.ones((8, 64), numpy.float32)[:, ::2])
    contiguous = OneParam(numpy.ones((8, 32), numpy.float32))
    assert not strided.w.array.flags.c_contiguous
    for link in strided, contiguous:
        opt = optimizers.Adam().setup(link)
        link.w.grad = numpy.full((8, 32), 0.5, numpy.float32)
        opt.update()
    assert (contiguous.w.array != 1).all()
    numpy.testing.assert_array_equal(strided.w.array, contiguous.w.array)


def test_fused_loop_is_loaded_from_numbas_cache(tmp_path):
    # The loop's source is written to a file in the user's cache, so that
    # a second process loads the compiled loop instead of compiling it.
    _require_numba()
    script = textwrap.dedent('''
        import numpy
        from kusari.training.optimizers import _fused_cpu, adam
        program = adam.AdamRule.formula.program((False, False))
        arrays = [numpy.ones(8, numpy.float32) for _ in range(4)]
        assert _fused_cpu.run(program.numba_source, arrays,
                              [0.1] * len(program.scalars))
        kernel = _fused_cpu._compiled[program.numba_source]
        print(sum(kernel.stats.cache_hits.values()))
    ''')
    environment = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    hits = [subprocess.run([sys.executable, '-c', script], env=environment,
                           capture_output=True, text=True, check=True
                           ).stdout.strip() for _ in range(2)]
    assert hits == ['0', '1']


@pytest.mark.parametrize('array', [
    numpy.ones(6, numpy.float16), numpy.ones((4, 6), numpy.float32)[:, ::2]])
def test_fused_kernel_declines_what_it_cannot_run(array):
    _require_numba()
    program = optimizers.AdamRule.formula.program((False, False))
    arrays = (array, array.copy(), array.copy(), array.copy())
    assert not _fused_cpu.run(program.numba_source, arrays,
                              [0.1] * len(program.scalars))
    assert (array == 1).all()


def test_too_small_eps_is_refused_for_the_dtype():
    link = OneParam(_initial())
    opt = optimizers.RMSprop(eps=1e-320).setup(link)
    link.w.grad = numpy.ones(SHAPE)
    opt.update()  # representable in float64
    link32 = OneParam(_initial().astype('f'))
    opt32 = optimizers.RMSprop(eps=1e-50).setup(link32)
    link32.w.grad = numpy.ones(SHAPE, 'f')
    before = link32.w.array.copy()
    with pytest.raises(ValueError, match='RMSpropRule: eps=1e-50'):
        opt32.update()
    numpy.testing.assert_array_equal(link32.w.array, before)


def _gpu_case(name, kwargs, dtype):
    import cupy
    link = OneParam(_initial().astype(dtype))
    link.to_device('@cupy:0')
    opt = getattr(optimizers, name)(**kwargs).setup(link)
    for g in _grads():
        link.w.grad = cupy.asarray(g.astype(dtype))
        opt.update()
    return cupy.asnumpy(link.w.array)


@pytest.mark.gpu
@pytest.mark.parametrize('name, reference, kwargs', CASES)
@pytest.mark.parametrize('dtype, rtol', [(numpy.float64, 1e-12),
                                         (numpy.float32, 2e-5),
                                         (numpy.float16, 1e-2)])
def test_fused_gpu_kernel_matches_transcription(name, reference, kwargs,
                                                dtype, rtol):
    expected = reference(_initial(), _grads(), **kwargs)
    rtol = _rtol(name, dtype, rtol)
    numpy.testing.assert_allclose(_gpu_case(name, kwargs, dtype), expected,
                                  rtol=rtol, atol=rtol)


# The formulas: one per rule, made into each path's code.

def test_formula_becomes_in_place_numpy_calls():
    program = optimizers.MomentumSGDRule.formula.program(())
    assert program.numpy_source == textwrap.dedent('''\
        def update(grad, param, v, s0_, momentum, lr):
            if momentum != 1:
                numpy.multiply(v, momentum, out=v)
            numpy.multiply(grad, lr, out=s0_)
            numpy.subtract(v, s0_, out=v)
            numpy.add(param, v, out=param)
        ''')


def test_formula_scalar_parts_are_computed_once():
    program = optimizers.AdamRule.formula.program((False, False))
    assert program.inputs == ('beta1', 'beta2', 'alpha_t', 'eps', 'eta',
                              'weight_decay_rate')
    assert program.scalars == ('c0', 'c1', 'alpha_t', 'eps', 'c2', 'eta')
    assert program.prepare(0.9, 0.5, 0.1, 1e-8, 0.5, 0.2) == (
        1 - 0.9, 1 - 0.5, 0.1, 1e-8, 1 - 0.5 * 0.2, 0.5)


@pytest.mark.parametrize('name, flags, n_scratch', [
    ('SGD', (), 1), ('MomentumSGD', (), 1), ('CorrectedMomentumSGD', (), 1),
    ('NesterovAG', (), 1), ('AdaGrad', (), 2), ('AdaDelta', (), 2),
    ('RMSprop', (False,), 2), ('RMSprop', (True,), 2),
    ('RMSpropGraves', (), 2), ('SMORMS3', (), 2), ('Adam', (False, False), 1),
    ('Adam', (True, True), 1), ('MSVAG', (), 3)])
def test_formula_reuses_dead_scratch_arrays(name, flags, n_scratch):
    rule = getattr(optimizers, name)().create_update_rule()
    assert rule.formula.program(flags).n_scratch == n_scratch


@pytest.mark.parametrize('source, message', [
    ('param = grad ** 2', 'not allowed'),
    ('param = exp(grad)', 'the functions are'),
    ('param = sqrt(grad, grad)', 'the functions are'),
    ('param[0] = grad', 'assign to one name'),
    ('param, v = grad, grad', 'assign to one name'),
    ('param //= grad', 'only'),
    ('if lr > 0:\n    param = grad', 'a condition is a flag name'),
    ('return grad', 'is not an assignment'),
])
def test_formula_refuses_what_it_cannot_write(source, message):
    with pytest.raises(ValueError, match=message):
        _formula.Formula(source)


@pytest.mark.parametrize('source', [
    'v = grad', 'grad = param * 2', 'param = grad_ * 2', 'param = c0 * grad',
    'i = grad\nparam = i'])
def test_formula_refuses_names_it_cannot_classify(source):
    with pytest.raises(ValueError, match='param, never grad|kept'):
        _formula.Formula(source).program(())


def _host_update(program, directory):
    """The CUDA body of ``program``, compiled for the host in float32 by
    g++ (no fused multiply-add, as NumPy computes), as a function of
    NumPy arrays and scalars."""
    arrays = ('grad',) + program.arrays
    source = '\n'.join([
        '#include <algorithm>', '#include <cmath>',
        'using std::max; using std::min; using std::sqrt;',
        'typedef float compute_t;',
        'extern "C" void update(long size, ' + ', '.join(
            [f'float* {name}_array' for name in arrays]
            + [f'float {name}' for name in program.scalars]) + ') {',
        'for (long i = 0; i < size; ++i) {',
        *[f'float& {name} = {name}_array[i];' for name in arrays],
        program.cuda_body, '}}'])
    (directory / 'update.cpp').write_text(source)
    library = directory / 'update.so'
    subprocess.run(['g++', '-O2', '-ffp-contract=off', '-shared', '-fPIC',
                    '-o', str(library), str(directory / 'update.cpp')],
                   check=True)
    function = ctypes.CDLL(str(library)).update

    def update(*arguments):
        arrays, scalars = arguments[:len(program.arrays) + 1], \
            arguments[len(program.arrays) + 1:]
        function(ctypes.c_long(arrays[0].size),
                 *[a.ctypes.data_as(ctypes.c_void_p) for a in arrays],
                 *[ctypes.c_float(s) for s in scalars])
    return update


@pytest.mark.skipif(shutil.which('g++') is None, reason='needs g++')
@pytest.mark.parametrize('name, reference, kwargs', CASES)
def test_cuda_body_computes_what_numpy_does(monkeypatch, tmp_path, name,
                                            reference, kwargs):
    # The GPU kernel's body, compiled here for the CPU, is the NumPy
    # update bit for bit (on a GPU its fused multiply-adds round less).
    monkeypatch.setattr(jit, 'numba_module', lambda: None)
    link = OneParam(_initial().astype(numpy.float32))
    opt = getattr(optimizers, name)(**kwargs).setup(link)
    for g in _grads()[:3]:
        link.w.grad = g.astype(numpy.float32)
        opt.update()
    rule = link.w.update_rule
    program, arrays, scalars = rule._program(link.w)
    copies = [array.copy() for array in arrays]
    grad = link.w.grad
    scratch = [numpy.empty_like(grad) for _ in range(program.n_scratch)]
    program.numpy_update(grad, *arrays, *scratch, *scalars)
    _host_update(program, tmp_path)(grad.copy(), *copies, *scalars)
    for expected, actual in zip(arrays, copies, strict=True):
        numpy.testing.assert_array_equal(actual, expected)
