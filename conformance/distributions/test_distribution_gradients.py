"""Gradients of densities, of reparameterised draws and of KL divergences
with respect to the parameters, against finite differences."""
import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness import strategies
from harness.profiles import conformance_settings
from kusari import distributions as D
from kusari.autograd import Variable
from kusari.autograd import gradient_check

from distributions import distribution_cases as cases

SEEDS = st.integers(0, 2 ** 32 - 1)
BATCH_SHAPES = strategies.shapes(max_dims=2, min_side=1, max_side=3)
# Finite differences are taken in float64 whatever the dtype under test.
TOLERANCES = {numpy.float64: {'atol': 1e-5, 'rtol': 1e-4},
              numpy.float32: {'atol': 1e-3, 'rtol': 1e-2}}
DTYPES = tuple(TOLERANCES)


def _check(func, inputs, rng, dtype, device, no_grads=None):
    """check_backward of ``func`` at ``inputs`` (float64 host arrays)
    cast to ``dtype`` and sent to ``device``."""
    inputs = tuple(device.send([x.astype(dtype) for x in inputs]))
    with device:
        output = func(*[Variable(x) for x in inputs])
        y_grad = device.send(rng.normal(size=output.shape).astype(dtype))
        gradient_check.check_backward(
            func, inputs, y_grad, eps=1e-3, dtype=numpy.float64,
            no_grads=no_grads, **TOLERANCES[dtype])


def _ids(case, dtype):
    return f'{case.name}-{dtype.__name__}'


def _params_of(case, arrays):
    return dict(zip(case.params, arrays))


@pytest.mark.parametrize('case, dtype', [
    pytest.param(case, dtype, id=_ids(case, dtype))
    for case in cases.CASES for dtype in DTYPES])
@conformance_settings
@given(seed=SEEDS, shape=BATCH_SHAPES)
def test_log_prob(case, dtype, seed, shape, device):
    rng = numpy.random.default_rng(seed)
    params = cases.draw_params(case, rng, shape)
    point = case.points(rng, params, shape)
    count = len(params)
    if case.discrete:   # no gradient with respect to a count
        counts = device.send(point.astype(dtype))

        def func(*args):
            return case.make(**_params_of(case, args)).log_prob(counts)
        inputs = tuple(params.values())
    else:
        def func(*args):
            return case.make(**_params_of(case, args[:count])).log_prob(
                args[count])
        inputs = (*params.values(), point)
    _check(func, inputs, rng, dtype, device)


@pytest.mark.parametrize('case, dtype', [
    pytest.param(case, dtype, id=_ids(case, dtype))
    for case in cases.CASES if case.reparameterised for dtype in DTYPES])
@conformance_settings
@given(seed=SEEDS, shape=BATCH_SHAPES)
def test_reparameterised_sample(case, dtype, seed, shape, device):
    rng = numpy.random.default_rng(seed)
    params = cases.draw_params(case, rng, shape)

    def func(*args):
        cases.seeded(device, seed)   # the same noise at every call
        return case.make(**_params_of(case, args)).sample_n(2)

    no_grads = [name not in case.reparameterised for name in params]
    _check(func, tuple(params.values()), rng, dtype, device, no_grads)


@pytest.mark.parametrize('case', [
    pytest.param(case, id=case.name) for case in cases.KL_CASES])
@conformance_settings
@given(seed=SEEDS, shape=BATCH_SHAPES)
def test_kl_divergence(case, seed, shape, device):
    rng = numpy.random.default_rng(seed)
    p_params, q_params = cases.draw_kl_params(case, rng, shape)
    count = len(p_params)

    def func(*args):
        p = case.make(**_params_of(case, args[:count]))
        q = case.make(**_params_of(case, args[count:]))
        return D.kl_divergence(p, q)

    _check(func, (*p_params.values(), *q_params.values()), rng,
           numpy.float64, device)


def _cholesky_factors(rng, shape, d):
    root = rng.normal(size=shape + (d, d))
    return numpy.linalg.cholesky(
        root @ numpy.swapaxes(root, -1, -2) + numpy.eye(d))


def _multivariate_inputs(name, rng, batch, k):
    """Parameters of a multivariate distribution."""
    if name == 'MultivariateNormal':
        return (rng.normal(size=(batch, k)),
                _cholesky_factors(rng, (batch,), k))
    if name == 'Dirichlet':
        return (rng.uniform(0.5, 3, (batch, k)),)
    # Away from 0, where log p bends too fast for finite differences.
    p = rng.dirichlet(numpy.ones(k), batch) + 0.2
    return (p / p.sum(axis=-1, keepdims=True),)


MULTIVARIATE = {
    'MultivariateNormal': lambda loc, tril: D.MultivariateNormal(
        loc, scale_tril=tril * _lower(tril)),
    'Dirichlet': D.Dirichlet,
    'Categorical': D.Categorical,
    'Categorical:logit': lambda logit: D.Categorical(logit=logit),
    'OneHotCategorical': D.OneHotCategorical,
}


def _lower(tril):
    """The lower-triangle mask, on the device of the Variable ``tril``."""
    return tril.xp.tril(tril.xp.ones(tril.shape[-2:], dtype=tril.dtype))


def _points(name, rng, batch, k):
    if name == 'MultivariateNormal':
        return rng.normal(size=(2, batch, k))
    if name == 'Dirichlet':
        return rng.dirichlet(numpy.ones(k), (2, batch))
    index = rng.integers(0, k, (2, batch))
    return numpy.eye(k)[index] if name == 'OneHotCategorical' else index


@pytest.mark.parametrize('name', sorted(MULTIVARIATE))
@conformance_settings
@given(seed=SEEDS, batch=st.integers(1, 3), k=st.integers(2, 4))
def test_multivariate(name, seed, batch, k, device):
    """log_prob, entropy, a reparameterised draw (MultivariateNormal) and
    the KL divergence, for each parameter."""
    rng = numpy.random.default_rng(seed)
    make = MULTIVARIATE[name]
    params = _multivariate_inputs(name.split(':')[0], rng, batch, k)
    others = _multivariate_inputs(name.split(':')[0], rng, batch, k)
    point = device.send(_points(name, rng, batch, k))
    count = len(params)
    _check(lambda *args: make(*args).log_prob(point), params, rng,
           numpy.float64, device)
    _check(lambda *args: make(*args).entropy, params, rng, numpy.float64,
           device)
    _check(lambda *args: D.kl_divergence(make(*args[:count]),
                                         make(*args[count:])),
           params + others, rng, numpy.float64, device)
    if name == 'MultivariateNormal':
        def sample(*args):
            cases.seeded(device, seed)
            return make(*args).sample_n(2)
        _check(sample, params, rng, numpy.float64, device)
