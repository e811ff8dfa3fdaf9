"""Initializers, link hooks, batch converters and device helpers, for any
Chainer-like ``chainer`` module: run by ``test_init.py`` with Kusari's
drop-in and by ``oracle_init.py`` with Chainer 7.8.1.

Only NumPy is imported here. Every scenario returns a flat dict of arrays
(``name -> array``) that both sides write and the test compares; random
values are drawn after the same ``numpy.random.seed``. An error is
recorded as the name of its type, a Python value that is not an array as
the name of its type beside its value.
"""
import numpy

DTYPES = ('float16', 'float32', 'float64')
SHAPES = {'vector': (5,), 'square': (4, 4), 'wide': (3, 5),
          'tall': (5, 3), 'conv': (4, 2, 3, 3), 'depthwise': (3, 1, 2, 2),
          'conv_square': (3, 3, 3, 3)}
# name -> (initializer class, keyword arguments).
INITIALIZERS = {
    'Identity': ('Identity', {}),
    'Identity_scale': ('Identity', {'scale': 0.5}),
    'Constant': ('Constant', {'fill_value': 2.5}),
    'Zero': ('Zero', {}),
    'One': ('One', {}),
    'NaN': ('NaN', {}),
    'Normal': ('Normal', {}),
    'Normal_scale': ('Normal', {'scale': 0.3}),
    'LeCunNormal': ('LeCunNormal', {}),
    'LeCunNormal_scale': ('LeCunNormal', {'scale': 2.0}),
    'GlorotNormal': ('GlorotNormal', {}),
    'GlorotNormal_scale': ('GlorotNormal', {'scale': 0.5}),
    'HeNormal': ('HeNormal', {}),
    'HeNormal_fan_out': ('HeNormal', {'fan_option': 'fan_out'}),
    'Orthogonal': ('Orthogonal', {}),
    'Orthogonal_scale': ('Orthogonal', {'scale': 2.0}),
    'Orthogonal_projection': ('Orthogonal', {'mode': 'projection'}),
    'Orthogonal_embedding': ('Orthogonal', {'mode': 'embedding'}),
    'Orthogonal_basis': ('Orthogonal', {'mode': 'basis'}),
    'Uniform': ('Uniform', {}),
    'Uniform_scale': ('Uniform', {'scale': 3.0}),
    'LeCunUniform': ('LeCunUniform', {}),
    'LeCunUniform_scale': ('LeCunUniform', {'scale': 0.5}),
    'GlorotUniform': ('GlorotUniform', {}),
    'GlorotUniform_scale': ('GlorotUniform', {'scale': 2.0}),
    'HeUniform': ('HeUniform', {}),
    'HeUniform_scale': ('HeUniform', {'scale': 0.5}),
    'UpsamplingDeconvFilter': ('UpsamplingDeconvFilter', {}),
    'DownsamplingConvFilter': ('DownsamplingConvFilter', {}),
}
# Initializers that take an ``rng``.
RANDOM = ('Normal', 'LeCunNormal', 'GlorotNormal', 'HeNormal', 'Orthogonal',
          'Uniform', 'LeCunUniform', 'GlorotUniform', 'HeUniform')
# Link initial values: name -> (initialW, initial_bias) builders.
LINK_INITIALS = {
    'default': lambda inits: (None, None),
    'scalar': lambda inits: (0.25, 3),
    'array': lambda inits: (numpy.arange(12.0).reshape(4, 3),
                            numpy.arange(4.0)),
    'initializer': lambda inits: (inits.HeUniform(), inits.One()),
    'bias_initializer': lambda inits: (2.0, inits.Normal(2.0)),
    'both_random': lambda inits: (inits.HeUniform(), inits.Normal(2.0)),
    'callable': lambda inits: (_fill_with(7.0), _fill_with(-1.0)),
    'float64_dtype': lambda inits: (inits.Normal(dtype=numpy.float64), None),
}
BATCHES = {
    'arrays': lambda: [numpy.arange(3.0) + i for i in range(4)],
    'ints': lambda: [numpy.arange(2, dtype=numpy.int32) * i
                     for i in range(3)],
    'tuples': lambda: [(numpy.full((2, 3), i, numpy.float32),
                        numpy.int32(i)) for i in range(3)],
    'dicts': lambda: [{'x': numpy.full(2, i, numpy.float32),
                       'y': numpy.int64(i)} for i in range(3)],
    'scalars': lambda: [numpy.float32(i) for i in range(4)],
    'python_scalars': lambda: [1.5, 2.5],
    'ragged': lambda: [numpy.ones((i + 1, 2), numpy.float32)
                       for i in range(3)],
    'ragged_2d': lambda: [numpy.ones((i + 1, 3 - i)) * i for i in range(3)],
    'ragged_tuples': lambda: [(numpy.arange(i + 1.0),
                               numpy.arange(2 * i + 1)) for i in range(3)],
    'ragged_dicts': lambda: [{'a': numpy.arange(i + 1.0), 'b': numpy.int32(i)}
                             for i in range(3)],
    'lists': lambda: [[numpy.arange(2.0), numpy.ones(3)] for _ in range(2)],
    'empty': lambda: [],
    'mixed_shapes': lambda: [numpy.ones(2), numpy.ones(3)],
}
# concat_examples padding values per batch (None: no padding).
PADDINGS = {
    'arrays': (None, 0), 'ints': (None, -1), 'tuples': (None, (-1, 0)),
    'dicts': (None, {'x': -1, 'y': 0}), 'scalars': (None, 0),
    'python_scalars': (None,), 'ragged': (-1, 0.5), 'ragged_2d': (0, -2),
    'ragged_tuples': (-1, (0, -3)), 'ragged_dicts': ({'a': 9, 'b': 0},),
    'lists': (None,), 'empty': (None,), 'mixed_shapes': (None, 0),
}

# Results kept out of the compared set: key prefix -> reason.
_SAMPLING_SHAPE = ('Chainer asserts (AssertionError) or fails to unpack '
                   '(TypeError) on a weight that is not (c, c or 1, '
                   '*kernel); Kusari raises ValueError naming the shape')
_ASSERTED_DTYPE = ('Chainer asserts the initializer\'s dtype '
                   '(AssertionError); Kusari raises TypeError naming both')
_WIDER = ('Kusari accepts more than Chainer here on purpose (nested '
          'lists, tuples and dicts of arrays, scalars, array-likes, the '
          'numpy module as a device); Chainer raises TypeError')
_CHAINERX_NAME = ('a specifier without @ names a ChainerX device: Chainer '
                  'without ChainerX raises RuntimeError; Kusari (no '
                  'ChainerX) raises ValueError listing the specifiers')
KNOWN_DIFFERENCES = {
    **{f'init/{cls}/{shape}/': _SAMPLING_SHAPE
       for cls in ('UpsamplingDeconvFilter', 'DownsamplingConvFilter')
       for shape in ('square', 'wide', 'tall', 'conv')},
    'options/dtype_mismatch': _ASSERTED_DTYPE,
    'link_initial/bad_string': 'Chainer takes a string for a scalar and '
    'fails converting it (ValueError); Kusari rejects it as an initializer '
    '(TypeError)',
    'timer/summary_type': 'TimerHook.summary: Chainer gives an '
    'OrderedDict, Kusari a dict (ordered too; both are dicts)',
    'spectral/error/zero_iterations': 'Chainer asserts n_power_iteration '
    '> 0 (AssertionError); Kusari raises ValueError naming it',
    **{f'{where}/{case}': _WIDER for where, case in (
        ('to_device/-1', 'dict'), ('to_device/-1', 'scalar'),
        ('to_device/@numpy', 'dict'), ('to_device/@numpy', 'scalar'),
        ('cuda', 'to_cpu_nested'), ('cuda', 'to_cpu_dict'),
        ('equality', 'send'),
        ('copyto', 'from_list'), ('device', 'numpy_module'),
        ('chainer_get_device', 'numpy_module'))},
    'async/@numpy/': 'ConcatWithAsyncTransfer: Chainer compares the '
    'device with 0 (TypeError for \'@numpy\'); Kusari takes any device '
    'specifier',
    'device/bad_string': _CHAINERX_NAME,
    'chainer_get_device/bad_string': _CHAINERX_NAME,
}


def _fill_with(value):
    def fill(array):
        array[...] = value
    return fill


def _error(error):
    return numpy.array(type(error).__name__)


def _value(value):
    """An array for any result: arrays as they are, other values as the
    string ``'<type name>: <value>'``."""
    if isinstance(value, numpy.ndarray):
        return value
    if value is None:
        return numpy.array('None')
    # str for NumPy scalars: their repr differs between NumPy 1 and 2.
    shown = str(value) if isinstance(value, numpy.generic) else repr(value)
    return numpy.array(f'{type(value).__name__}: {shown}')


def _flatten(prefix, value, out):
    """Record a nested result: containers by position or key, with their
    type names."""
    if isinstance(value, (tuple, list)):
        out[f'{prefix}/type'] = numpy.array(type(value).__name__)
        for i, item in enumerate(value):
            _flatten(f'{prefix}/{i}', item, out)
    elif isinstance(value, dict):
        out[f'{prefix}/type'] = numpy.array(type(value).__name__)
        for key in sorted(value):
            _flatten(f'{prefix}/{key}', value[key], out)
    else:
        out[prefix] = _value(value)


def _attempt(out, key, compute):
    """``out[key] = compute()`` (flattened), or the error type's name."""
    try:
        value = compute()
    except Exception as error:  # NOQA: BLE001 (the type is the result)
        out[key] = _error(error)
        return
    _flatten(key, value, out)


def _fill(initializer, shape, dtype):
    array = numpy.full(shape, -7, dtype=dtype)
    numpy.random.seed(0)
    initializer(array)
    return array


def initializer_cases(chainer):
    """Every initializer on every shape and dtype, after ``seed(0)``."""
    I = chainer.initializers  # NOQA: E741 (Chainer's usual name)
    out = {}
    for name, (cls, kwargs) in INITIALIZERS.items():
        for shape_name, shape in SHAPES.items():
            for dtype in DTYPES:
                _attempt(out, f'init/{name}/{shape_name}/{dtype}',
                         lambda: _fill(getattr(I, cls)(**kwargs), shape,
                                       dtype))
    for name in RANDOM:
        for shape_name in ('wide', 'tall', 'conv'):
            _attempt(out, f'init/rng/{name}/{shape_name}', lambda: _fill(
                getattr(I, name)(rng=numpy.random.RandomState(3)),
                SHAPES[shape_name], 'float32'))
    return out


def initializer_option_cases(chainer):
    """The dtype option, arrays as constants, generate_array, errors."""
    I = chainer.initializers  # NOQA: E741
    out = {}
    attempts = {
        'dtype_match': lambda: _fill(I.Normal(dtype=numpy.float16), (3, 2),
                                     numpy.float16),
        'dtype_mismatch': lambda: _fill(I.Normal(dtype=numpy.float16),
                                        (3, 2), numpy.float32),
        'dtype_mismatch_constant': lambda: _fill(
            I.Constant(1.0, dtype=numpy.float64), (2,), numpy.float32),
        'dtype_mismatch_orthogonal': lambda: _fill(
            I.Orthogonal(dtype=numpy.float64), (2, 2), numpy.float32),
        'constant_array': lambda: _fill(
            I.Constant(numpy.arange(3.0)), (2, 3), numpy.float32),
        'constant_int': lambda: _fill(I.Constant(3), (2,), numpy.int32),
        'one_int': lambda: _fill(I.One(), (2,), numpy.int64),
        'zero_int': lambda: _fill(I.Zero(), (2,), numpy.int64),
        'identity_int': lambda: _fill(I.Identity(), (2, 2), numpy.int32),
        'identity_1d': lambda: _fill(I.Identity(), (3,), numpy.float32),
        'identity_nonsquare': lambda: _fill(I.Identity(), (2, 3),
                                            numpy.float32),
        'orthogonal_empty': lambda: _fill(I.Orthogonal(), (0, 3),
                                          numpy.float32),
        'orthogonal_scalar': lambda: _fill(I.Orthogonal(), (), 'float64'),
        'orthogonal_bad_mode': lambda: I.Orthogonal(mode='sideways'),
        'he_bad_fan_option': lambda: _fill(I.HeNormal(fan_option='fan_avg'),
                                           (2, 2), 'float32'),
        'he_fan_of_vector': lambda: _fill(I.HeNormal(), (3,), 'float32'),
        'fans': lambda: chainer.initializer.get_fans((4, 2, 3, 5)),
        'fans_1d': lambda: chainer.initializer.get_fans((4,)),
        'generate': lambda: _generate(I, I.Normal(), (2, 3)),
        'generate_dtype': lambda: _generate(I, I.Uniform(), (4,),
                                            dtype=numpy.float16),
        'generate_initializer_dtype': lambda: _generate(
            I, I.One(dtype=numpy.float64), (2,)),
        'generate_conflict': lambda: _generate(
            I, I.One(dtype=numpy.float64), (2,), dtype=numpy.float32),
        'generate_int_shape': lambda: _generate(I, I.Zero(), 3),
        'generate_device': lambda: _generate(I, I.One(), (2,),
                                             device='@numpy'),
        'generate_bad_device': lambda: I.generate_array(
            I.One(), (2,), numpy, device='@cupy:0'),
        'generate_default_dtype': lambda: _generate(
            I, _fill_with(3.0), (2,)),
    }
    for name, compute in attempts.items():
        _attempt(out, f'options/{name}', compute)
    return out


def _generate(I, initializer, shape, **kwargs):  # NOQA: E741
    numpy.random.seed(0)
    return I.generate_array(initializer, shape, numpy, **kwargs)


def link_initial_cases(chainer):
    """L.Linear's initial W and b for each kind of initial value."""
    out = {}
    for name, make in LINK_INITIALS.items():
        def build():
            initial_w, initial_b = make(chainer.initializers)
            numpy.random.seed(0)
            link = chainer.links.Linear(3, 4, initialW=initial_w,
                                        initial_bias=initial_b)
            return {'W': link.W.array, 'b': link.b.array}
        _attempt(out, f'link_initial/{name}', build)
    for name, initial in {'string': 'ones', 'list': [1.0, 2.0]}.items():
        _attempt(out, f'link_initial/bad_{name}',
                 lambda: chainer.links.Linear(3, 4, initialW=initial).W.array)
    return out


# Links under a hook: name -> (link class, positional arguments, input
# shape).
HOOKED_LINKS = {
    'linear': ('Linear', (4, 3), (2, 4)),
    'conv': ('Convolution2D', (2, 3, 2), (2, 2, 4, 4)),
    'deconv': ('Deconvolution2D', (3, 2, 2), (2, 3, 3, 3)),
    'lazy_linear': ('Linear', (None, 3), (2, 4)),
    'lazy_conv': ('Convolution2D', (None, 3, 2), (2, 2, 4, 4)),
}
# SpectralNormalization variants: name -> keyword arguments.
SPECTRAL = {
    'default': {},
    'gamma': {'use_gamma': True},
    'factor': {'factor': 2.0},
    'iterations': {'n_power_iteration': 3},
    'named': {'name': 'sn'},
}


def _saved_keys(chainer, link):
    serializer = chainer.serializers.DictionarySerializer()
    serializer.save(link)
    return {'keys': numpy.array(sorted(serializer.target)),
            **{f'saved/{k}': v for k, v in serializer.target.items()
               if isinstance(v, numpy.ndarray) and v.dtype != object}}


def _hooked(chainer, link_name, hook, dtype):
    """A seeded link of ``HOOKED_LINKS`` with ``hook`` added, and its
    input and output gradient."""
    cls, args, shape = HOOKED_LINKS[link_name]
    with chainer.using_config('dtype', numpy.dtype(dtype)):
        numpy.random.seed(0)
        link = getattr(chainer.links, cls)(*args)
        link.add_hook(hook)
    rng = numpy.random.RandomState(1)
    x = rng.standard_normal(shape).astype(dtype)
    return link, x, rng


def _forward_backward(chainer, link, x, rng):
    """The output, and gradients of a fixed projection of it."""
    variable = chainer.Variable(x.copy())
    link.cleargrads()
    y = link(variable)
    gy = rng.standard_normal(y.shape).astype(y.dtype)
    chainer.functions.sum(y * gy).backward()
    out = {'y': y.array, 'gx': variable.grad}
    out.update({f'grad/{name}': param.grad
                for name, param in link.namedparams()})
    return out


def spectral_cases(chainer):
    """SpectralNormalization: values over calls in train and test mode,
    the vector it keeps, gradients, the keys it adds, and its removal."""
    out = {}
    for link_name in HOOKED_LINKS:
        for name, kwargs in SPECTRAL.items():
            prefix = f'spectral/{link_name}/{name}'
            _attempt(out, prefix, lambda: _spectral_run(
                chainer, link_name, kwargs, 'float32'))
    _attempt(out, 'spectral/float64', lambda: _spectral_run(
        chainer, 'linear', {}, 'float64'))
    for name, kwargs in {'bad_weight': {'weight_name': 'V'},
                         'zero_iterations': {'n_power_iteration': 0}}.items():
        _attempt(out, f'spectral/error/{name}', lambda: _hooked(
            chainer, 'linear', chainer.link_hooks.SpectralNormalization(
                **kwargs), 'float32')[0])
    return out


def _spectral_run(chainer, link_name, kwargs, dtype):
    hook = chainer.link_hooks.SpectralNormalization(**kwargs)
    link, x, rng = _hooked(chainer, link_name, hook, dtype)
    u_name = hook.vector_name
    result = {'name': numpy.array(hook.name), 'u_name': numpy.array(u_name),
              'axis': numpy.array(hook.axis),
              'u0': _value(getattr(link, u_name, None)),
              **_saved_keys(chainer, link)}
    for step in range(3):
        result.update({f'train{step}/{k}': v for k, v in _forward_backward(
            chainer, link, x, rng).items()})
        result[f'train{step}/u'] = getattr(link, u_name).copy()
    with chainer.using_config('train', False):
        result.update({f'test/{k}': v for k, v in _forward_backward(
            chainer, link, x, rng).items()})
        result['test/u'] = getattr(link, u_name).copy()
    link.delete_hook(hook.name)
    result['deleted/keys'] = _saved_keys(chainer, link)['keys']
    result['deleted/y'] = link(x).array
    return result


def standardization_cases(chainer):
    """WeightStandardization: values and gradients, and its keys."""
    out = {}
    for link_name in HOOKED_LINKS:
        # A lazy weight is made later, outside the float64 configuration.
        dtypes = ('float32',) if link_name.startswith('lazy') else (
            'float32', 'float64')
        for dtype in dtypes:
            def run():
                hook = chainer.link_hooks.WeightStandardization()
                link, x, rng = _hooked(chainer, link_name, hook, dtype)
                result = {'name': numpy.array(hook.name),
                          'keys': _saved_keys(chainer, link)['keys'],
                          **_forward_backward(chainer, link, x, rng)}
                link.delete_hook(hook.name)
                result['deleted/y'] = link(x).array
                return result
            _attempt(out, f'standardization/{link_name}/{dtype}', run)
    return out


def timer_cases(chainer):
    """TimerHook: the summary's structure and types (not the times)."""
    hook = chainer.link_hooks.TimerHook()
    link, x, _ = _hooked(chainer, 'linear', hook, 'float32')
    link(x)
    link(x)
    link.delete_hook(hook.name)
    summary = hook.summary()
    out = {'timer/name': numpy.array(hook.name),
           'timer/total_time_type': numpy.array(
               type(hook.total_time()).__name__),
           'timer/summary_type': numpy.array(type(summary).__name__),
           'timer/summary_keys': numpy.array(sorted(summary))}
    for key, entry in summary.items():
        out.update({f'timer/{key}/{k}': numpy.array(type(v).__name__)
                    for k, v in entry.items()})
        out[f'timer/{key}/occurrence'] = numpy.array(entry['occurrence'])
    with hook:
        link(x)
    out['timer/global/occurrence'] = numpy.array(
        hook.summary()['Linear']['occurrence'])
    return out


def converter_cases(chainer):
    """concat_examples with and without padding, to_device, converters."""
    dataset = chainer.dataset
    out = {}
    for name, make in BATCHES.items():
        for i, padding in enumerate(PADDINGS[name]):
            _attempt(out, f'concat/{name}/padding{i}',
                     lambda: dataset.concat_examples(make(), padding=padding))
    for spec in (-1, '@numpy'):
        for name in ('arrays', 'tuples', 'dicts'):
            _attempt(out, f'concat/device{spec}/{name}',
                     lambda: dataset.concat_examples(BATCHES[name](), spec))
    array = numpy.arange(3.0)
    targets = {'array': array, 'list': [array, array * 2],
               'tuple': (array, None), 'dict': {'a': array},
               'scalar': 2.0, 'none': None}
    for spec in (None, -1, '@numpy'):
        for name, x in targets.items():
            _attempt(out, f'to_device/{spec}/{name}',
                     lambda: dataset.to_device(spec, x))
    out['to_device/same_object'] = numpy.array(
        dataset.to_device(-1, array) is array)

    @dataset.converter()
    def describe(batch, device=None):
        return {'n': len(batch), 'device': str(device),
                'device_type': type(device).__name__}
    for spec in (None, -1, '@numpy'):
        _attempt(out, f'converter/{spec}', lambda: describe([1, 2], spec))
    for spec in (None, -1, '@numpy'):
        for name in ('arrays', 'ragged', 'dicts'):
            _attempt(out, f'async/{spec}/{name}',
                     lambda: dataset.ConcatWithAsyncTransfer()(
                         BATCHES[name](), spec, padding=0))
    out.update(_updater_devices(chainer))
    return out


def _updater_devices(chainer):
    """The device argument StandardUpdater gives each style of converter.
    """
    seen = []

    def old_style(batch, device):  # Chainer's legacy converter
        seen.append(repr(device))
        return numpy.stack(batch)

    @chainer.dataset.converter()
    def new_style(batch, device):
        seen.append(repr(device))
        return numpy.stack(batch)

    model = chainer.links.Linear(1, 1)
    optimizer = chainer.optimizers.SGD()
    optimizer.setup(model)
    data = [numpy.ones(1, numpy.float32)] * 4
    out = {}
    for name, convert in {'old': old_style, 'new': new_style}.items():
        for spec in (None, -1, '@numpy'):
            def update():
                del seen[:]
                updater = chainer.training.updaters.StandardUpdater(
                    chainer.iterators.SerialIterator(data, 2, shuffle=False),
                    optimizer, converter=convert, device=spec,
                    loss_func=lambda x: chainer.functions.sum(model(x)))
                updater.update()
                return seen[0]
            _attempt(out, f'updater_device/{name}/{spec}', update)
    return out


def _describe_device(device):
    return {'type': type(device).__name__, 'str': str(device),
            'name': device.name, 'xp': device.xp.__name__}


def backend_cases(chainer):
    """Device helpers of chainer.backend on the CPU."""
    backend = chainer.backend
    out = {}
    array = numpy.arange(6.0).reshape(2, 3)
    modules = {'array': (array,), 'variable': (chainer.Variable(array),),
               'scalar': (1.5,), 'none': (None,), 'mixed': (array, 2),
               'nothing': (), 'list': ([1, 2],)}
    for name, args in modules.items():
        _attempt(out, f'xp/{name}',
                 lambda: backend.get_array_module(*args).__name__)
    specs = {'at_numpy': '@numpy', 'minus_one': -1, 'numpy_module': numpy,
             'cpu_device': backend.CpuDevice(), 'bad_name': '@foo',
             'bad_string': 'cpu', 'float': 1.5, 'none': None,
             'cupy_bad_id': '@cupy:x', 'tuple': ('@numpy',),
             'minus_two': -2, 'intel64': '@intel64'}
    for name, spec in specs.items():
        _attempt(out, f'device/{name}', lambda: _describe_device(
            backend.get_device(spec)))
        _attempt(out, f'chainer_get_device/{name}', lambda: _describe_device(
            chainer.get_device(spec)))
    cpu = backend.CpuDevice()
    comparisons = {
        'same': lambda: cpu == backend.CpuDevice(),
        'spec': lambda: backend.get_device('@numpy') == cpu,
        'string': lambda: cpu == '@numpy',
        'not_equal': lambda: cpu != backend.CpuDevice(),
        'hash': lambda: hash(cpu) == hash(backend.CpuDevice()),
        'repr': lambda: repr(cpu),
        'from_array': lambda: _describe_device(
            backend.get_device_from_array(array)),
        'from_list': lambda: _describe_device(
            backend.get_device_from_array([1.0])),
        'send': lambda: cpu.send([array, (array, None)]),
        'send_scalar': lambda: cpu.send(1.5),
        'supported': lambda: cpu.is_array_supported(array),
        'supported_list': lambda: cpu.is_array_supported([1.0]),
    }
    for name, compute in comparisons.items():
        _attempt(out, f'equality/{name}', compute)

    def use(spec):
        with chainer.using_device(spec) as device:
            return type(device).__name__
    for name in ('at_numpy', 'minus_one', 'bad_name'):
        _attempt(out, f'using_device/{name}', lambda: use(specs[name]))
    copies = {
        'same': (numpy.zeros(3), numpy.arange(3.0)),
        'cast': (numpy.zeros(3, numpy.float32), numpy.arange(3.0)),
        'broadcast': (numpy.zeros((2, 3)), numpy.arange(3.0)),
        'bad_shape': (numpy.zeros((2, 3)), numpy.arange(2.0)),
        'float_to_int': (numpy.zeros(3, numpy.int32), numpy.arange(3.0)),
        'from_list': (numpy.zeros(2), [1.0, 2.0]),
        'into_list': ([0.0, 0.0], numpy.ones(2)),
    }
    for name, (dst, src) in copies.items():
        def copy():
            backend.copyto(dst, src)
            return dst
        _attempt(out, f'copyto/{name}', copy)
    cuda = chainer.backends.cuda
    moves = {
        'to_cpu_nested': lambda: cuda.to_cpu([array, (array * 2, None)]),
        'to_cpu_none': lambda: cuda.to_cpu(None),
        'to_cpu_scalar': lambda: cuda.to_cpu(1.5),
        'to_cpu_list_of_floats': lambda: cuda.to_cpu([1.0, 2.0]),
        'to_cpu_dict': lambda: cuda.to_cpu({'a': array}),
        'to_cpu_same': lambda: cuda.to_cpu(array) is array,
        'to_gpu': lambda: cuda.to_gpu(array),
        'to_device_gpu': lambda: chainer.dataset.to_device(0, array),
        'get_device_gpu': lambda: backend.get_device(0),
        'get_device_cupy': lambda: backend.get_device('@cupy:0'),
        'device_from_array': lambda: _dummy(
            cuda, cuda.get_device_from_array(array)),
        'device_from_none': lambda: _dummy(
            cuda, cuda.get_device_from_id(None)),
        'copy': lambda: cuda.copy(array),
        'available': lambda: cuda.available,
        'xp': lambda: cuda.get_array_module(array).__name__,
    }
    for name, compute in moves.items():
        _attempt(out, f'cuda/{name}', compute)
    return out


def _dummy(cuda, device):
    """What a CPU array's CUDA device looks like."""
    with device:
        return {'is_dummy': device is cuda.DummyDevice, 'id': device.id,
                'bool': bool(device), 'equal': device == cuda.DummyDevice}


def device_resident_cases(chainer):
    """A link's device, xp and moves between CPU specifiers."""
    out = {}
    link = chainer.links.Linear(2, 3)
    moves = {
        'initial': lambda: _describe_device(link.device),
        'xp': lambda: link.xp.__name__,
        'to_cpu_returns_self': lambda: link.to_cpu() is link,
        'to_device_numpy': lambda: _describe_device(
            link.to_device('@numpy').device),
        'to_device_minus_one': lambda: _describe_device(
            link.to_device(-1).device),
        'to_device_bad': lambda: link.to_device('@foo'),
        'to_gpu': lambda: link.to_gpu(),
        'param_device': lambda: _describe_device(link.W.device),
    }
    for name, compute in moves.items():
        _attempt(out, f'resident/{name}', compute)
    return out


SECTIONS = (initializer_cases, initializer_option_cases, link_initial_cases,
            spectral_cases, standardization_cases, timer_cases,
            converter_cases, backend_cases, device_resident_cases)


def evaluate(chainer):
    """Every scenario's results, one flat dict."""
    out = {}
    for section in SECTIONS:
        out.update(section(chainer))
    return out
