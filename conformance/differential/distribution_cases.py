"""Distributions of ``chainer.distributions`` built from the same
parameters by Kusari and by the real Chainer 7.8.1: their properties,
pointwise functions, gradients, KL divergences, samples and errors.

Only NumPy is imported here: the same code runs in both interpreters, with
``api`` the ``chainer`` module of each (Kusari's drop-in or Chainer).
Inputs are drawn by the test and shared through an .npz file; output
gradients are drawn here from a generator seeded by the output's name
(NumPy's legacy ``RandomState`` streams are the same in both NumPy
versions).
"""
import zlib

import numpy

F64, F32 = 'float64', 'float32'

# family: (expression building the distribution from the parameters,
# {parameter: (low, high, kind, event shape)}, point spec ``(low, high,
# kind)`` of ``x``). ``kind``: None (uniform, differentiable), 'tril'
# (lower-triangular with a positive diagonal), 'simplex' (probabilities
# along the last axis), 'int' (integers in [low, high)), 'onehot', 'bits'
# (0. or 1.), 'count' (integers as floats), 'const' (uniform, not
# differentiable).
FAMILIES = {
    'bernoulli_p': ('D.Bernoulli(p)', {'p': (0.1, 0.9, None, ())},
                    (0, 2, 'bits')),
    'bernoulli_logit': ('D.Bernoulli(logit=logit)', {
        'logit': (-2, 2, None, ())}, (0, 2, 'bits')),
    'bernoulli_binary_check': ('D.Bernoulli(p, binary_check=True)', {
        'p': (0.1, 0.9, None, ())}, (0, 2, 'bits')),
    'beta': ('D.Beta(a, b)', {'a': (0.5, 3, None, ()),
                              'b': (0.5, 3, None, ())}, (0.05, 0.95, None)),
    'categorical_p': ('D.Categorical(p)', {'p': (0, 0, 'simplex', (4,))},
                      (0, 4, 'int')),
    'categorical_logit': ('D.Categorical(logit=logit)', {
        'logit': (-2, 2, None, (4,))}, (0, 4, 'int')),
    'cauchy': ('D.Cauchy(loc, scale)', {'loc': (-1, 1, None, ()),
                                        'scale': (0.5, 2, None, ())},
               (-3, 3, None)),
    'chisquare': ('D.Chisquare(k)', {'k': (0.5, 5, None, ())},
                  (0.1, 4, None)),
    'dirichlet': ('D.Dirichlet(alpha)', {'alpha': (0.5, 3, None, (4,))},
                  (0, 0, 'simplex')),
    'exponential': ('D.Exponential(lam)', {'lam': (0.5, 2, None, ())},
                    (0.1, 3, None)),
    'gamma': ('D.Gamma(k, theta)', {'k': (0.5, 3, None, ()),
                                    'theta': (0.5, 2, None, ())},
              (0.1, 4, None)),
    'geometric': ('D.Geometric(p)', {'p': (0.1, 0.9, None, ())},
                  (1, 6, 'count')),
    'gumbel': ('D.Gumbel(loc, scale)', {'loc': (-1, 1, None, ()),
                                        'scale': (0.5, 2, None, ())},
               (-2, 3, None)),
    'independent_normal': ('D.Independent(D.Normal(loc, scale))', {
        'loc': (-1, 1, None, ()), 'scale': (0.5, 2, None, ())},
        (-2, 2, None)),
    'independent_normal_2': ('D.Independent(D.Normal(loc, scale), 2)', {
        'loc': (-1, 1, None, ()), 'scale': (0.5, 2, None, ())},
        (-2, 2, None)),
    'independent_bernoulli': ('D.Independent(D.Bernoulli(logit=logit))', {
        'logit': (-2, 2, None, ())}, (0, 2, 'bits')),
    'independent_multivariate_normal': (
        'D.Independent(D.MultivariateNormal(loc, scale_tril=s))', {
            'loc': (-1, 1, None, (3,)), 's': (0.5, 1.5, 'tril', (3, 3))},
        (-2, 2, None)),
    'laplace': ('D.Laplace(loc, scale)', {'loc': (-1, 1, None, ()),
                                          'scale': (0.5, 2, None, ())},
                (-3, 3, None)),
    'log_normal': ('D.LogNormal(mu, sigma)', {'mu': (-1, 1, None, ()),
                                              'sigma': (0.5, 1.5, None, ())},
                   (0.1, 4, None)),
    'multivariate_normal': ('D.MultivariateNormal(loc, scale_tril=s)', {
        'loc': (-1, 1, None, (3,)), 's': (0.5, 1.5, 'tril', (3, 3))},
        (-2, 2, None)),
    'normal': ('D.Normal(loc, scale)', {'loc': (-1, 1, None, ()),
                                        'scale': (0.5, 2, None, ())},
               (-3, 3, None)),
    'normal_log_scale': ('D.Normal(loc, log_scale=log_scale)', {
        'loc': (-1, 1, None, ()), 'log_scale': (-1, 1, None, ())},
        (-3, 3, None)),
    'one_hot_categorical': ('D.OneHotCategorical(p)', {
        'p': (0, 0, 'simplex', (4,))}, (0, 4, 'onehot')),
    'pareto': ('D.Pareto(scale, alpha)', {'scale': (0.5, 1.5, None, ()),
                                          'alpha': (0.5, 4, None, ())},
               (1.6, 5, None)),
    'poisson': ('D.Poisson(lam)', {'lam': (0.5, 4, None, ())},
                (0, 6, 'count')),
    'uniform': ('D.Uniform(low=low, high=high)', {
        'low': (-2, -0.5, None, ()), 'high': (0.5, 2, None, ())},
        (-0.4, 0.4, None)),
    'uniform_loc_scale': ('D.Uniform(loc=loc, scale=scale)', {
        'loc': (-2, -0.5, None, ()), 'scale': (2, 3, None, ())},
        (-0.4, 0.4, None)),
}

# variant: (shape of the first parameter's batch, of the others', of x's)
VARIANTS = {'scalar': ((), (), ()), 'batched': ((2, 3), (2, 3), (2, 3)),
            'broadcast': ((2, 3), (3,), (2, 2, 3))}

# Families whose draws are compared by shape and dtype only (after
# numpy.random.seed(0) the others must draw the same values): they do not
# draw through numpy.random alike.
UNLIKE_DRAWS = {
    'categorical_p': 'Chainer picks classes with numpy.random.choice row '
                     'by row; Kusari adds Gumbel noise to log p.',
    'categorical_logit': 'As categorical_p.',
    'one_hot_categorical': 'As categorical_p.',
    'dirichlet': 'Chainer draws numpy.random.dirichlet row by row, as '
                 'float32; Kusari normalises Gamma draws.',
    'laplace': 'Chainer rounds the standard draws to float32 before '
               'scaling them; Kusari keeps the dtype of the parameters.',
    'multivariate_normal': 'As laplace.',
    'independent_multivariate_normal': 'As laplace.',
    'poisson': 'As dirichlet\'s float32: same counts, other dtype.',
}

PROPERTIES = ('batch_shape', 'event_shape', 'support', 'params', 'mean',
              'variance', 'stddev', 'entropy', 'mode', 'covariance')
POINTWISE = ('log_prob', 'prob', 'cdf', 'log_cdf', 'survival_function',
             'log_survival_function', 'perplexity', 'icdf')
QUERIES = PROPERTIES + POINTWISE + ('sample',)


def _family_cases():
    cases = {}
    for family, (build, params, point) in FAMILIES.items():
        for variant, shapes in VARIANTS.items():
            dtypes = (F64, F32) if variant == 'batched' else (F64,)
            for dtype in dtypes:
                suffix = '' if dtype == F64 else '_f32'
                cases[f'{family}_{variant}{suffix}'] = (
                    build, _specs(params, point, shapes,
                                  _event_of(family, params)), dtype)
    return cases


def _specs(params, point, shapes, event):
    first, rest, x_batch = shapes
    specs = {}
    for i, (name, (low, high, kind, shape)) in enumerate(params.items()):
        specs[name] = ((first if i == 0 else rest) + shape, low, high, kind)
    low, high, kind = point
    specs['x'] = (x_batch + event, low, high, kind)
    # probabilities where icdf is evaluated
    specs['q'] = (x_batch + event, 0.05, 0.95, 'const')
    return specs


def _event_of(family, params):
    """The event shape of a family: that of its first parameter, but
    for the categorical ones, whose draws are class indices."""
    if family.startswith('categorical'):
        return ()
    return next(iter(params.values()))[3]


CASES = _family_cases()
# points outside the support, where it is bounded
OUTSIDE = {'beta': (-0.5, 1.5), 'chisquare': (-1, 3),
           'exponential': (-1, 3), 'gamma': (-1, 3), 'log_normal': (-1, 3),
           'pareto': (0.2, 3), 'uniform': (-3, 3),
           'uniform_loc_scale': (-3, 3)}
for _family, (_low, _high) in OUTSIDE.items():
    _build, _specs_of, _dtype = CASES[f'{_family}_batched']
    _specs_of = dict(_specs_of, x=((2, 3), _low, _high, 'const'))
    CASES[f'{_family}_outside'] = (_build, _specs_of, _dtype)
# class indices, counts and bits given as integers, or as floats
for _family, _kind in {'bernoulli_p': 'int', 'geometric': 'int',
                       'poisson': 'int', 'categorical_p': 'count',
                       'categorical_logit': 'count'}.items():
    _build, _specs_of, _dtype = CASES[f'{_family}_batched']
    _shape, _low, _high, _ = _specs_of['x']
    _specs_of = dict(_specs_of, x=(_shape, _low, _high, _kind))
    CASES[f'{_family}_{_kind}_x'] = (_build, _specs_of, _dtype)

# KL divergences (and cross entropies) between two members of a family:
# parameters of the second member are suffixed with 2.
KL_FAMILIES = ('bernoulli_p', 'beta', 'categorical_logit', 'dirichlet',
               'exponential', 'gamma', 'geometric', 'gumbel',
               'independent_normal', 'laplace', 'log_normal',
               'multivariate_normal', 'normal', 'one_hot_categorical',
               'pareto', 'poisson', 'uniform')
for _family in KL_FAMILIES:
    _build, _params, _ = FAMILIES[_family]
    _second = _build
    for _name in _params:
        _second = _second.replace(f'{_name})', f'{_name}2)').replace(
            f'{_name},', f'{_name}2,')
    _kl_specs = {}
    for _name, (_low, _high, _kind, _event) in _params.items():
        _kl_specs[_name] = ((2, 3) + _event, _low, _high, _kind)
        _kl_specs[f'{_name}2'] = ((2, 3) + _event, _low, _high, _kind)
    CASES[f'kl_{_family}'] = (f'KL({_build}, {_second})', _kl_specs, F64)
    CASES[f'kl_{_family}_f32'] = (f'KL({_build}, {_second})', _kl_specs,
                                  F32)

# Arguments Chainer rejects: the error types must agree.
ERROR_CASES = {
    'error_normal_scale_and_log_scale':
        'D.Normal(loc, scale, log_scale=loc)',
    'error_normal_no_scale': 'D.Normal(loc)',
    'error_bernoulli_p_and_logit': 'D.Bernoulli(p=scale, logit=loc)',
    'error_bernoulli_neither': 'D.Bernoulli()',
    'error_categorical_p_and_logit': 'D.Categorical(p=scale, logit=loc)',
    'error_categorical_neither': 'D.Categorical()',
    'error_uniform_mixed': 'D.Uniform(low=loc, scale=scale)',
    'error_uniform_none': 'D.Uniform()',
    'error_multivariate_normal_no_scale_tril':
        'D.MultivariateNormal(loc)',
    'error_kl_unregistered': 'KL(D.Normal(loc, scale), D.Laplace(loc, '
                             'scale))',
    'error_independent_too_many_axes':
        'D.Independent(D.Normal(loc, scale), 3)',
    'error_categorical_index_out_of_range':
        'D.Categorical(logit=loc).log_prob(numpy.array([0, 3]))',
    'error_kl_independent_axes': 'KL(D.Independent(D.Normal(loc, scale), '
                                 '1), D.Independent(D.Normal(loc, scale), '
                                 '0))',
    'error_kl_shapes': 'KL(D.Normal(loc, scale), D.Normal(loc[:, :2], '
                       'scale[:, :2]))',
    'error_negative_sample_count': 'D.Normal(loc, scale).sample_n(-1)',
    'error_normal_list': 'D.Normal([0.0], [1.0]).log_prob(numpy.zeros(1))',
    'error_dirichlet_event_shapes':
        'D.Dirichlet(scale).log_prob(numpy.full((2, 4), 0.25))',
    # Kusari rejects these when it builds the distribution (see
    # KNOWN_DIFFERENCES)
    'error_categorical_negative_index':
        'D.Categorical(logit=loc).log_prob(numpy.array([0, -1]))',
    'error_multivariate_normal_square':
        'D.MultivariateNormal(loc, scale_tril=scale).log_prob(loc)',
    'error_normal_shapes': 'D.Normal(loc, scale[:, :2]).log_prob(loc)',
    'error_normal_integers': 'D.Normal(numpy.zeros(3, "i"), numpy.ones(3, '
                             '"i")).log_prob(numpy.zeros(3))',
    'error_independent_of_an_array': 'D.Independent(loc)',
}
for _case, _expression in ERROR_CASES.items():
    CASES[_case] = (_expression, {'loc': ((2, 3), -1, 1, None),
                                  'scale': ((2, 3), 0.5, 2, None)}, F64)


def draw(rng, specs, dtype):
    """The input arrays of one case, drawn from its specs with ``rng``."""
    return {name: _draw_one(rng, dtype, *spec)
            for name, spec in specs.items()}


def _draw_one(rng, dtype, shape, low, high, kind):
    if kind == 'tril':
        n = shape[-1]
        below = numpy.tril(rng.uniform(-1, 1, shape), -1)
        diagonal = rng.uniform(low, high, shape[:-1])
        return (below + diagonal[..., None] * numpy.eye(n)).astype(dtype)
    if kind == 'simplex':
        weights = rng.uniform(0.2, 1, shape)
        return (weights / weights.sum(-1, keepdims=True)).astype(dtype)
    if kind == 'int':
        return rng.randint(low, high, shape).astype('int32')
    if kind == 'const':
        return rng.uniform(low, high, shape).astype(dtype)
    if kind == 'onehot':
        return numpy.eye(shape[-1], dtype=dtype)[
            rng.randint(0, shape[-1], shape[:-1])]
    if kind in ('bits', 'count'):
        return rng.randint(low, high, shape).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def differentiable(specs):
    """The names of the inputs gradients are taken for, sorted."""
    return sorted(name for name, spec in specs.items()
                  if spec[3] in (None, 'tril', 'simplex'))


def _output_gradient(case, query, y):
    rng = numpy.random.RandomState(zlib.crc32(f'{case}/{query}'.encode()))
    return rng.uniform(-1, 1, y.shape).astype(y.dtype)


def _array(y):
    return numpy.asarray(getattr(y, 'array', y))


def _with_gradients(api, case, query, y, xs):
    """``{out, grad/name}`` of the output ``y``: its value and the
    gradients of ``sum(y * gy)`` for a fixed ``gy``."""
    results = {f'{query}/out': _array(y)}
    if getattr(y, 'creator', None) is None:
        return results
    names = sorted(xs)
    gy = api.Variable(_output_gradient(case, query, y))
    grads = api.grad([y], [xs[n] for n in names], [gy])
    for name, g in zip(names, grads):
        results[f'{query}/grad/{name}'] = (
            numpy.zeros_like(xs[name].array) if g is None else _array(g))
    return results


def _query(api, case, query, dist, arrays, xs):
    if query in ('batch_shape', 'event_shape'):
        return {f'{query}/out': numpy.array(getattr(dist, query),
                                            dtype='int64')}
    if query == 'support':
        return {f'{query}/out': numpy.array(dist.support)}
    if query == 'params':
        params = dist.params
        results = {'params/keys': numpy.array(sorted(params))}
        for key, value in params.items():
            results.update(_with_gradients(api, case, f'params/{key}',
                                           value, xs))
        return results
    if query == 'sample':
        results = {}
        for shape in ((), (2,), (2, 1)):
            numpy.random.seed(0)
            draws = dist.sample(shape)
            results[f'sample/{len(shape)}/shape'] = numpy.array(
                draws.shape, dtype='int64')
            results[f'sample/{len(shape)}/dtype'] = numpy.array(
                str(draws.dtype))
            if _family_of(case) not in UNLIKE_DRAWS:
                results[f'draws/{len(shape)}'] = _array(draws)
        return results
    if query in PROPERTIES:
        return _with_gradients(api, case, query, getattr(dist, query), xs)
    point = arrays['q'] if query == 'icdf' else xs.get('x', arrays['x'])
    return _with_gradients(api, case, query,
                           getattr(dist, query)(point), xs)


def _family_of(case):
    return next(family for family in sorted(FAMILIES, key=len,
                                            reverse=True)
                if case.startswith(family))


def _scope(api, specs, arrays):
    xs = {name: api.Variable(arrays[name]) for name in differentiable(specs)}
    scope = {'D': api.distributions, 'numpy': numpy,
             'KL': api.kl_divergence, **arrays, **xs}
    return scope, xs


def evaluate(api, case, arrays):
    """``{key: array}`` of one case; a query that raises gives
    ``query/error``, the type and message of the error.

    Args:
        api: the ``chainer`` module (Kusari's drop-in or Chainer).
        case: a name of ``CASES``.
        arrays: ``{input name: array}``.
    """
    expression, specs, _ = CASES[case]
    scope, xs = _scope(api, specs, arrays)
    try:
        built = eval(expression, scope)
    except Exception as error:
        return {'build/error': _describe(error)}
    if case.startswith('error_'):
        return {'build/out': _array(built)}
    if not case.startswith('kl_'):
        results = {}
        for query in QUERIES:
            try:
                results.update(_query(api, case, query, built, arrays, xs))
            except Exception as error:
                results[f'{query}/error'] = _describe(error)
        return results
    results = _with_gradients(api, case, 'kl', built, xs)
    first, second = expression[3:-1].split(', D.')
    try:
        cross = api.cross_entropy(
            eval(first, scope), eval('D.' + second, scope))
        results.update(_with_gradients(api, case, 'cross_entropy', cross,
                                       xs))
    except Exception as error:
        results['cross_entropy/error'] = _describe(error)
    return results


def _describe(error):
    """``'Type,Base,...: message'``: the error's classes (so that one
    side's error may be a subclass of the other's) and its message."""
    names = ','.join(cls.__name__ for cls in type(error).__mro__)
    return numpy.array(f'{names}: {error}')


def pack(case, arrays):
    """The ``.npz`` entries of one case's inputs."""
    return {f'{case}/{name}': a for name, a in arrays.items()}


def unpack(npz, case):
    """The inverse of :func:`pack`."""
    return {key.split('/')[1]: npz[key] for key in npz
            if key.split('/')[0] == case}


# Results kept out of the comparison: {case/query: why Kusari differs, on
# purpose or because Chainer 7.8.1 is wrong}.
KNOWN_DIFFERENCES = {}
for _family in KL_FAMILIES:
    if _family not in ('geometric', 'one_hot_categorical', 'poisson'):
        for _case in {f'kl_{_family}', f'kl_{_family}_f32'} - {
                'kl_multivariate_normal'}:  # raises before (see below)
            KNOWN_DIFFERENCES[f'{_case}/cross_entropy'] = (
                'Chainer 7.8.1 calls the entropy property '
                '(dist1.entropy()) and raises TypeError; Kusari returns '
                'entropy + KL, the documented cross entropy.')
KNOWN_DIFFERENCES['kl_multivariate_normal/build'] = (
    'Chainer 7.8.1 inverts scale_tril with a float32-only function: '
    'float64 raises InvalidType.')
for _variant in ('scalar', 'batched', 'broadcast'):
    for _family in ('multivariate_normal', 'independent_multivariate_normal'):
        KNOWN_DIFFERENCES[f'{_family}_{_variant}/log_prob'] = (
            KNOWN_DIFFERENCES['kl_multivariate_normal/build'])
    for _family in ('dirichlet', 'poisson'):
        KNOWN_DIFFERENCES[f'{_family}_{_variant}/sample'] = (
            'Chainer 7.8.1 draws float32 whatever the parameters\' dtype; '
            'Kusari keeps it (float64 here), as Chainer\'s other '
            'distributions do.')
# Kusari broadcasts the parameters to the batch shape when it builds a
# distribution; Chainer 7.8.1 keeps them as given, so what derives from a
# (3,) parameter alone has shape (3,), not the batch shape (2, 3).
_BROADCAST = ('Kusari broadcasts the parameters to batch_shape (2, 3); '
              'Chainer keeps the (3,) one, and its result has the wrong '
              'shape for batch_shape.')
for _family, _queries in {
        'beta': ('params',), 'cauchy': ('params', 'entropy'),
        'gamma': ('params',), 'gumbel': ('params', 'variance', 'entropy'),
        'independent_normal': ('params', 'variance', 'stddev', 'entropy'),
        'independent_normal_2': ('params', 'variance', 'stddev',
                                 'entropy'),
        'independent_multivariate_normal': ('params', 'entropy',
                                            'covariance'),
        'laplace': ('params', 'variance', 'stddev', 'entropy'),
        'log_normal': ('params',),
        'multivariate_normal': ('params', 'entropy', 'covariance'),
        'normal': ('params', 'variance', 'stddev', 'entropy'),
        'normal_log_scale': ('params', 'variance', 'stddev', 'entropy'),
        'pareto': ('params',), 'uniform': ('params',),
        'uniform_loc_scale': ('params', 'variance', 'stddev',
                              'entropy')}.items():
    for _name in _queries:
        KNOWN_DIFFERENCES[f'{_family}_broadcast/{_name}'] = _BROADCAST
KNOWN_DIFFERENCES['poisson_int_x/sample'] = KNOWN_DIFFERENCES[
    'poisson_scalar/sample']
KNOWN_DIFFERENCES.update({
    'bernoulli_p_int_x/log_prob':
        'Chainer 7.8.1 raises InvalidType for integer observations; Kusari '
        'takes them (as Chainer\'s Poisson and Geometric do).',
    'bernoulli_p_int_x/prob': 'As bernoulli_p_int_x/log_prob.',
    'beta_outside/log_prob':
        'Chainer 7.8.1 gives NaN gradients for a and b at points outside '
        '[0, 1], where the log density is the constant -inf; Kusari 0.',
    'exponential_outside/cdf':
        'Chainer 7.8.1 gives 1 - exp(-lam x), negative, for x < 0; Kusari '
        '0 (a cdf is a probability).',
    'log_normal_outside/log_prob':
        'Chainer 7.8.1 gives NaN (the log of x <= 0) outside the support; '
        'Kusari -inf.',
})
_EARLY = ('Kusari checks the arguments when it builds the distribution '
          'and raises ValueError or TypeError naming it and the argument; '
          'Chainer 7.8.1 raises InvalidType from an inner function later.')
KNOWN_DIFFERENCES.update({
    'error_categorical_negative_index/build':
        'Chainer 7.8.1 indexes log_p with it, NumPy-style (-1 is the last '
        'class); Kusari raises IndexError: not a class index.',
    'error_multivariate_normal_square/build': _EARLY,
    'error_normal_shapes/build': _EARLY,
    'error_normal_integers/build': _EARLY,
    'error_independent_of_an_array/build':
        'Chainer 7.8.1 fails with AttributeError (an ndarray has no '
        'batch_shape); Kusari raises TypeError naming the argument.',
})
KNOWN_DIFFERENCES['multivariate_normal_broadcast/covariance'] = (
    'Chainer 7.8.1 transposes the (3, 3, 3) scale_tril with the axes of '
    'batch_shape (2, 3) and raises ValueError; Kusari broadcasts it.')
