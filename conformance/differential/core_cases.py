"""The core API (Variable, backward, Link/Chain/ChainList/Sequential,
configuration, utils, gradient checks, function hooks), for any
Chainer-like ``chainer`` module: run by ``test_core.py`` with Kusari's
drop-in and by ``oracle_core.py`` with Chainer 7.8.1.

Only NumPy and the standard library are imported here. Every case is a
function of ``chainer`` and the shared inputs returning a dict of plain
values; ``evaluate`` flattens them into ``case/name -> array``. A case
that raises is recorded as ``case/error``, the name of the error's type.
"""
import contextlib
import importlib
import io
import re

import numpy

CASES = {}
# Configuration keys of one side only (see KNOWN_DIFFERENCES).
CONFIG_KEYS_APART = ('_will_recompute', 'compute_mode', 'cuda_seed',
                     'dataset_root')

_CLEARER = ('Kusari checks the argument and raises TypeError naming it; '
            'Chainer 7.8.1 fails inside with AttributeError')
_FLOAT64 = ('Chainer 7.8.1 bug: an uninitialized Parameter whose '
            'initializer has no dtype reports float64 (numpy.dtype(None)), '
            'then initializes float32; Kusari reports float32')
# Results kept out of the compared set: key prefix -> reason.
KNOWN_DIFFERENCES = {
    'backward_scalar_without_grad': 'Chainer 7.8.1 skips a scalar output '
    'without grad (with a warning), so nothing is computed; Kusari starts '
    'it from 1 as Variable.backward does (a convenience no working Chainer '
    'code depends on)',
    'backward_options': 'Chainer 7.8.1 rejects retain_grad and loss_scale '
    'in chainer.backward (ValueError); Kusari supports both',
    'backward_array_grads': 'Chainer 7.8.1 fails on array grad_outputs '
    '(AttributeError); Kusari takes arrays as Variables',
    'variable_backward_loss_scale_given': 'Chainer scales only the '
    'implicit initial gradient by loss_scale, not a grad set by the '
    'user; Kusari scales both, so that the optimizer, which divides every '
    'gradient by the scale, updates by the true gradient',
    'grad_loss_scale_given': 'chainer.grad scales only the implicit '
    'initial gradients by loss_scale in Chainer; Kusari also scales '
    'given grad_outputs (as Variable.backward, see above)',
    'variable_backward_non_scalar_error': 'Chainer 7.8.1 fails with an '
    'accidental TypeError (int * None); Kusari raises ValueError saying '
    'to set grad first',
    'variable_requires_grad/set_': 'Kusari\'s requires_grad is settable '
    '(an extension, used by its links); Chainer\'s is read-only',
    'variable_addgrad/not_variable': _CLEARER,
    'chainlist_api/not_link': _CLEARER,
    'link_repr': 'Chainer 7.8.1 links have object\'s repr (an address); '
    'Kusari\'s repr is their str, on purpose',
    'link_str/conv': 'str(Convolution2D(3, 4, 3)): Chainer shows ksize as '
    'given (3), Kusari (3, 3): Kusari\'s layers keep every geometry '
    'argument as a tuple (Chainer\'s 2-d layers keep ksize as given, its '
    'N-d layers stride and pad)',
    'link_str/sequential': 'Chainer shows a function layer with its '
    'address (<function relu at 0x...>); Kusari leaves the address out '
    'on purpose (kusari.links.sequential), so printed models compare',
    'config_keys': 'Kusari has no _will_recompute (recompute is Chainer\'s '
    'private state) nor compute_mode (ChainerX), and adds cuda_seed and '
    'dataset_root (CHAINER_SEED and CHAINER_DATASET_ROOT made keys)',
    'timer_hook_backward': 'backward methods call other functions: '
    'Kusari\'s sum and relu backward use Reshape and ScaleGrad where '
    'Chainer uses ReLUGrad2 (values are checked elsewhere)',
    'parameter_api/uninit_dtype': _FLOAT64,
    'parameter_api/lazy_dtype': _FLOAT64,
    'timer_hook_report/bad_unit': 'TimerHook.print_report with an unknown '
    'unit: Chainer fails inside with KeyError; Kusari checks it and '
    'raises ValueError naming the accepted units',
    'type_check_errors/class': 'Kusari\'s InvalidType is a TypeError '
    '(catchable as both); Chainer\'s is a bare Exception',
    'type_check_errors/count': 'F.concat([]): Chainer raises InvalidType, '
    'Kusari ValueError (kusari.autograd.functions, not this check\'s '
    'files)',
    'type_check_errors/ndim': 'Chainer 7.8.1 bug: linear of 1-d inputs '
    'fails with IndexError inside its type check; Kusari raises '
    'InvalidType',
}


def case(function):
    """Register ``function`` as the case of its name."""
    CASES[function.__name__] = function
    return function


def shared_inputs(seed=0):
    """The arrays of every case, drawn once."""
    rng = numpy.random.RandomState(seed)
    return {
        'x': rng.uniform(-1, 1, (2, 3)).astype(numpy.float32),
        'y': rng.uniform(-1, 1, (2, 3)).astype(numpy.float32),
        'g': rng.uniform(-1, 1, (2, 3)).astype(numpy.float32),
        'w': rng.uniform(-1, 1, (3, 4)).astype(numpy.float32),
        'x64': rng.uniform(-1, 1, (3,)).astype(numpy.float64),
        'p': numpy.array([0.1, 0.2, 0.3, 0.4], numpy.float64),
    }


def _plain(value):
    """``value`` as an array numpy.savez keeps alike on both sides: None,
    types and sequences of anything but numbers as text."""
    if value is None:
        return numpy.str_('None')
    if isinstance(value, type):
        return numpy.str_(f'type:{value.__name__}')
    if isinstance(value, (tuple, list)) and not all(
            isinstance(v, (int, float, bool)) for v in value):
        return numpy.str_(repr([_plain(v).tolist() for v in value]))
    return numpy.asarray(value)


def _kind(value):
    """The type name of a value (``Variable``, ``ndarray``, ``bool``)."""
    return type(value).__name__


def _raises(call):
    """The name of the error type ``call()`` raises, or ``'none'``."""
    try:
        call()
    except Exception as error:  # NOQA: B902 (its type is the result)
        return type(error).__name__
    return 'none'


def _unaddressed(text):
    """``text`` with every ``0x...`` address (never equal) as ``0x?``."""
    return re.sub('0x[0-9a-f]+', '0x?', text)


def evaluate(chainer, inputs):
    """Every case's results as ``case/name -> array`` (numpy.random's
    global state, which some cases seed, is restored afterwards)."""
    results = {}
    state = numpy.random.get_state()
    for name, function in CASES.items():
        try:
            values = function(chainer, inputs)
        except Exception as error:  # NOQA: B902 (its type is the result)
            values = {'error': type(error).__name__}
        for key, value in values.items():
            results[f'{name}/{key}'] = _plain(value)
    numpy.random.set_state(state)
    return results


# -- 1. Variable ---------------------------------------------------------

def _variable(chainer, inputs, key='x', **kwargs):
    return chainer.Variable(inputs[key].copy(), **kwargs)


@case
def variable_properties(chainer, inputs):
    v = _variable(chainer, inputs, name='v')
    return {'shape': v.shape, 'ndim': v.ndim, 'size': v.size,
            'dtype': str(v.dtype), 'len': len(v), 'T': v.T.array,
            'T_kind': _kind(v.T), 'name': v.name,
            'requires_grad': v.requires_grad, 'grad': v.grad,
            'grad_var': v.grad_var, 'creator': v.creator,
            'rank': v.rank, 'label': v.label,
            'node_kind': _kind(v.node), 'node_name': v.node.name,
            'node_shape': v.node.shape, 'node_dtype': str(v.node.dtype),
            'xp': v.xp.__name__, 'array_kind': _kind(v.array)}


@case
def variable_item(chainer, inputs):
    v = chainer.Variable(inputs['x'][:1, :1].copy())
    return {'item': v.item(), 'kind': _kind(v.item()),
            'error': _raises(lambda: _variable(chainer, inputs).item())}


@case
def variable_reshape_transpose(chainer, inputs):
    v = _variable(chainer, inputs)
    return {'reshape_args': v.reshape(3, 2).array,
            'reshape_tuple': v.reshape((6,)).array,
            'reshape_neg': v.reshape(-1, 2).shape,
            'transpose': v.transpose().array,
            'transpose_axes': v.transpose(1, 0).array,
            'transpose_tuple': v.transpose((1, 0)).shape,
            'reshape_bad': _raises(lambda: v.reshape(4, 2)),
            'kind': _kind(v.reshape(6))}


@case
def variable_grad_setters(chainer, inputs):
    v = _variable(chainer, inputs)
    v.grad = inputs['g'].copy()
    out = {'grad': v.grad, 'grad_var_kind': _kind(v.grad_var),
           'grad_var': v.grad_var.array}
    v.cleargrad()
    out['cleared'] = v.grad
    v.zerograd()
    out['zeroed'] = v.grad
    v.grad_var = chainer.Variable(inputs['y'].copy())
    out['from_grad_var'] = v.grad
    out['bad_shape'] = _raises(lambda: setattr(
        v, 'grad', numpy.zeros((3, 2), numpy.float32)))
    out['bad_dtype'] = _raises(lambda: setattr(
        v, 'grad', numpy.zeros((2, 3), numpy.float64)))
    out['bad_type'] = _raises(lambda: setattr(v, 'grad', [1.0]))
    return out


@case
def variable_init_errors(chainer, inputs):
    return {'list': _raises(lambda: chainer.Variable([1.0, 2.0])),
            'scalar': _raises(lambda: chainer.Variable(1.0)),
            'none_ok': _raises(lambda: chainer.Variable(None)),
            'none_shape': str(chainer.Variable(None).array),
            'grad_kw': chainer.Variable(inputs['x'], grad=inputs['g']).grad,
            'int': chainer.Variable(
                numpy.arange(3, dtype=numpy.int32)).dtype.name}


@case
def variable_addgrad(chainer, inputs):
    a = _variable(chainer, inputs)
    b = _variable(chainer, inputs, 'y')
    b.grad = inputs['g'].copy()
    a.addgrad(b)
    out = {'first': a.grad}
    a.addgrad(b)
    out['second'] = a.grad
    c = _variable(chainer, inputs, 'y')
    a.addgrad(c)
    out['none'] = a.grad
    out['not_variable'] = _raises(lambda: a.addgrad(inputs['g']))
    return out


@case
def variable_copydata(chainer, inputs):
    a = _variable(chainer, inputs)
    b = _variable(chainer, inputs, 'y')
    a.copydata(b)
    c = chainer.Variable(numpy.zeros((3,), numpy.float64))
    c.copydata(chainer.Variable(numpy.ones(3, numpy.float32)))
    return {'copied': a.array, 'source': b.array, 'cast': c.array,
            'cast_dtype': str(c.dtype),
            'bad_shape': _raises(lambda: a.copydata(chainer.Variable(
                numpy.zeros((3, 2), numpy.float32))))}


@case
def variable_backward(chainer, inputs):
    x = _variable(chainer, inputs)
    h = x * x
    y = chainer.functions.sum(h * 3)
    y.backward()
    return {'x_grad': x.grad, 'h_grad': h.grad, 'y_grad': y.grad,
            'x_grad_kind': _kind(x.grad)}


@case
def variable_backward_retain(chainer, inputs):
    x = _variable(chainer, inputs)
    h = x * x
    y = chainer.functions.sum(h * 3)
    y.backward(retain_grad=True)
    return {'x_grad': x.grad, 'h_grad': h.grad, 'y_grad': y.grad}


@case
def variable_backward_loss_scale(chainer, inputs):
    x = _variable(chainer, inputs)
    y = chainer.functions.sum(x * x)
    y.backward(loss_scale=8.0)
    return {'x_grad': x.grad}


@case
def variable_backward_double(chainer, inputs):
    x = _variable(chainer, inputs)
    y = chainer.functions.sum(x * x * x)
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    out = {'gx': gx.array, 'gx_has_creator': gx.creator is not None}
    x.cleargrad()
    chainer.functions.sum(gx).backward()
    out['ggx'] = x.grad
    return out


@case
def variable_backward_non_scalar(chainer, inputs):
    x = _variable(chainer, inputs)
    y = x * 2
    out = {'x_grad': x.grad}
    y.grad = inputs['g'].copy()
    y.backward()
    out['given'] = x.grad
    out['y_grad'] = y.grad
    return out


@case
def variable_backward_non_scalar_error(chainer, inputs):
    return {'error': _raises((_variable(chainer, inputs) * 2).backward)}


@case
def variable_backward_accumulates(chainer, inputs):
    x = _variable(chainer, inputs)
    chainer.functions.sum(x * 2).backward()
    chainer.functions.sum(x * 3).backward()
    return {'x_grad': x.grad}


@case
def variable_backward_no_creator(chainer, inputs):
    x = chainer.Variable(numpy.float32(2.0) * numpy.ones((), numpy.float32))
    x.backward()
    return {'grad': x.grad}


@case
def variable_unchain(chainer, inputs):
    x = _variable(chainer, inputs)
    h = x * 2
    h.unchain()
    y = chainer.functions.sum(h * 3)
    y.backward()
    return {'x_grad': x.grad, 'h_grad': h.grad, 'creator': h.creator,
            'h_requires': h.requires_grad}


@case
def variable_unchain_backward(chainer, inputs):
    x = _variable(chainer, inputs)
    h = x * 2
    y = h * 3
    z = chainer.functions.sum(y)
    y.unchain_backward()
    z.backward()
    return {'x_grad': x.grad, 'y_grad': y.grad, 'h_creator': h.creator,
            'y_creator': y.creator, 'z_creator': _kind(z.creator)}


@case
def variable_requires_grad(chainer, inputs):
    x = _variable(chainer, inputs, requires_grad=False)
    y = chainer.functions.sum(x * 2)
    return {'requires': x.requires_grad,
            'y_requires': y.requires_grad,
            'set_true': _raises(lambda: setattr(x, 'requires_grad', True)),
            'set_false': _raises(lambda: setattr(
                _variable(chainer, inputs), 'requires_grad', False)),
            'grad_error': _raises(lambda: setattr(
                x, 'grad', inputs['g'].copy())),
            'backward': _raises(y.backward), 'x_grad': x.grad}


@case
def variable_set_creator_node(chainer, inputs):
    x = _variable(chainer, inputs)
    y = x * 2
    z = _variable(chainer, inputs, 'y')
    z.set_creator_node(y.creator_node)
    out = {'rank': z.rank, 'creator_kind': _kind(z.creator_node),
           'same': z.creator_node is y.creator_node,
           'node_creator': z.node.creator_node is y.creator_node}
    return out


@case
def variable_comparisons(chainer, inputs):
    a = _variable(chainer, inputs)
    b = _variable(chainer, inputs, 'y')
    out = {}
    for name, op in (('lt', lambda: a < b), ('le', lambda: a <= b),
                     ('gt', lambda: a > b), ('ge', lambda: a >= b),
                     ('eq', lambda: a == b), ('ne', lambda: a != b),
                     ('lt_scalar', lambda: a < 0), ('eq_array',
                                                    lambda: a == b.array)):
        try:
            value = op()
        except Exception as error:  # NOQA: B902 (its type is the result)
            out[name] = type(error).__name__
            continue
        out[f'{name}_kind'] = _kind(value)
        out[name] = getattr(value, 'array', value)
    out['bool'] = _raises(lambda: bool(a))
    out['bool_scalar'] = bool(chainer.Variable(numpy.ones((), 'f')))
    out['hash'] = _raises(lambda: hash(a))
    return out


@case
def variable_arithmetic_types(chainer, inputs):
    a = _variable(chainer, inputs)
    out = {}
    for name, value in (('radd', 1 + a), ('rsub', 1 - a), ('rmul', 2 * a),
                        ('rdiv', 1 / (a + 2)), ('pow', a ** 2),
                        ('rpow', 2 ** a), ('neg', -a), ('abs', abs(a)),
                        ('matmul', a @ chainer.Variable(inputs['w'])),
                        ('array_radd', inputs['y'] + a)):
        out[name] = value.array
        out[f'{name}_kind'] = _kind(value)
        out[f'{name}_dtype'] = str(value.dtype)
    return out


@case
def variable_getitem(chainer, inputs):
    a = _variable(chainer, inputs)
    y = a[1, ::-1]
    chainer.functions.sum(y * y).backward()
    return {'value': y.array, 'grad': a.grad, 'kind': _kind(y),
            'none': a[None].shape, 'ellipsis': a[..., 0].array,
            'bool': a[inputs['x'] > 0].array}


@case
def variable_text(chainer, inputs):
    v = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    named = chainer.Variable(numpy.arange(3, dtype=numpy.int32), name='n')
    empty = chainer.Variable(None)
    return {'repr': repr(v), 'str': str(v), 'repr_named': repr(named),
            'str_named': str(named), 'summary': _unaddressed(v.summary()),
            'summary_named': named.summary(), 'repr_none': repr(empty),
            'str_none': str(empty)}


@case
def variable_text_shapes(chainer, inputs):
    out = {}
    for name, array in (
            ('scalar', numpy.float32(1.5) * numpy.ones((), 'f')),
            ('half', inputs['x'].astype(numpy.float16)),
            ('empty', numpy.zeros((0, 3), 'f')),
            ('empty_1d', numpy.zeros((0,), 'f')),
            ('big', numpy.arange(2000, dtype=numpy.float64)),
            ('bool', inputs['x'] > 0), ('three_d', numpy.arange(
                12, dtype=numpy.int64).reshape(2, 3, 2))):
        v = chainer.Variable(array)
        out[f'{name}_repr'] = repr(v)
        out[f'{name}_str'] = str(v)
    return out


@case
def variable_debug_print(chainer, inputs):
    v = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3),
                         name='d')
    out = {'no_grad': v.debug_print()}
    v.grad = numpy.ones((2, 3), numpy.float32)
    out['grad'] = v.debug_print()
    v.grad[...] = 0
    out['zero_grad'] = v.debug_print()
    out['empty'] = _unaddressed(chainer.Variable().debug_print())
    out['unnamed'] = _unaddressed(chainer.Variable(
        inputs['x64']).debug_print())
    return out


@case
def parameter_api(chainer, inputs):
    p = chainer.Parameter()
    out = {'uninit_array': p.array,
           'uninit_grad': _raises(lambda: p.grad),
           'uninit_shape': _raises(lambda: p.shape),
           'uninit_init': p.is_initialized,
           'uninit_dtype': str(p.dtype)}
    p.zerograd()
    p.initialize((2, 3))
    out['nan'] = bool(numpy.isnan(p.array).all())
    out['zeroed_grad'] = p.grad
    q = chainer.Parameter(0.5, (2,))
    out['constant'] = q.array
    out['constant_dtype'] = str(q.dtype)
    r = chainer.Parameter(inputs['x64'].copy())
    out['from_array'] = r.array
    out['from_array_grad'] = r.grad
    out['kind'] = _kind(r)
    out['is_variable'] = isinstance(r, chainer.Variable)
    s = chainer.Parameter(chainer.initializers.Constant(2.0))
    out['lazy_dtype'] = str(s.dtype)
    s.initialize(3)
    out['int_shape'] = s.shape
    s.cleargrad()
    out['cleared'] = s.grad
    return out


@case
def variable_conversions(chainer, inputs):
    v = _variable(chainer, inputs)
    return {'as_variable': _kind(chainer.as_variable(inputs['x'])),
            'as_variable_requires': chainer.as_variable(
                inputs['x']).requires_grad,
            'as_variable_same': chainer.as_variable(v) is v,
            'as_array': _kind(chainer.as_array(v)),
            'as_array_same': chainer.as_array(inputs['x']) is inputs['x'],
            'data_is_array': v.data is v.array,
            'len_scalar': _raises(lambda: len(chainer.Variable(
                numpy.ones((), 'f')))),
            'array_setter': _raises(lambda: setattr(
                v, 'array', numpy.zeros(5, 'f'))),
            'shape_after': v.shape,
            'xp': v.xp.__name__, 'device': str(v.device)}


@case
def variable_copies(chainer, inputs):
    copy = importlib.import_module('copy')
    pickle = importlib.import_module('pickle')
    v = _variable(chainer, inputs, name='v')
    v.grad = inputs['g'].copy()
    y = v * 2
    shallow = copy.copy(y)
    deep = copy.deepcopy(v)
    loaded = pickle.loads(pickle.dumps(v))
    return {'shallow_shares': shallow.array is y.array,
            'shallow_creator': shallow.creator is y.creator,
            'deep': deep.array, 'deep_grad': deep.grad,
            'deep_shares': deep.array is v.array, 'deep_name': deep.name,
            'pickled': loaded.array, 'pickled_grad': loaded.grad,
            'pickled_name': loaded.name}


@case
def grad_function(chainer, inputs):
    x = _variable(chainer, inputs)
    w = _variable(chainer, inputs, 'y')
    y = chainer.functions.sum(x * x * w)
    gx, gw = chainer.grad([y], [x, w])
    return {'gx': gx.array, 'gw': gw.array, 'kind': _kind(gx),
            'x_grad': x.grad, 'has_creator': gx.creator is not None}


@case
def grad_function_options(chainer, inputs):
    x = _variable(chainer, inputs)
    h = x * x
    y = h * 2
    g = chainer.Variable(inputs['g'].copy())
    gx, = chainer.grad([y], [x], grad_outputs=[g], set_grad=True,
                       retain_grad=True)
    out = {'gx': gx.array, 'x_grad': x.grad, 'h_grad': h.grad,
           'same': x.grad_var is gx}
    x2 = _variable(chainer, inputs)
    h2 = x2 * x2
    y2 = chainer.functions.sum(h2 * 2)
    gi = chainer.Variable(inputs['y'].copy())
    gh, = chainer.grad([y2], [h2], grad_inputs=[gi])
    out['grad_inputs'] = gh.array
    z = chainer.functions.sum(x2 * x2 * x2)
    gz, = chainer.grad([z], [x2], enable_double_backprop=True)
    ggz, = chainer.grad([chainer.functions.sum(gz)], [x2])
    out['double'] = ggz.array
    out['unrelated'] = chainer.grad(
        [y2], [_variable(chainer, inputs, 'g')])[0]
    return out


@case
def grad_function_errors(chainer, inputs):
    x = _variable(chainer, inputs)
    y = chainer.functions.sum(x * 2)
    return {'not_list': _raises(lambda: chainer.grad(y, [x])),
            'inputs_not_list': _raises(lambda: chainer.grad([y], x)),
            'bad_grad_outputs': _raises(lambda: chainer.grad(
                [y], [x], grad_outputs=[None, None]))}


@case
def backward_several(chainer, inputs):
    x = _variable(chainer, inputs)
    y1 = chainer.functions.sum(x * x)
    y2 = x * 3
    chainer.backward([y1, y2], [chainer.Variable(numpy.float32(2.0)),
                                chainer.Variable(inputs['g'].copy())])
    out = {'x_grad': x.grad, 'y1_grad': y1.grad, 'y2_grad': y2.grad}
    x.cleargrad()
    h = x * 2
    chainer.backward([h, h * 3], [chainer.Variable(inputs['g'].copy()),
                                  chainer.Variable(inputs['y'].copy())],
                     enable_double_backprop=True)
    out['shared'] = x.grad
    out['h_grad'] = h.grad
    out['not_list'] = _raises(lambda: chainer.backward(y1))
    out['length'] = _raises(lambda: chainer.backward([y1], [None, None]))
    return out


@case
def backward_uses_output_grad(chainer, inputs):
    x = _variable(chainer, inputs)
    y = x * 3
    y.grad = inputs['g'].copy()
    chainer.backward([y])
    return {'x_grad': x.grad, 'y_grad': y.grad}


@case
def backward_scalar_without_grad(chainer, inputs):
    x = _variable(chainer, inputs)
    chainer.backward([chainer.functions.sum(x * x)])
    return {'x_grad': x.grad}


@case
def backward_non_scalar_without_grad(chainer, inputs):
    x = _variable(chainer, inputs)
    return {'error': _raises(lambda: chainer.backward([x * 2])),
            'x_grad': x.grad}


@case
def backward_options(chainer, inputs):
    x = _variable(chainer, inputs)
    y = chainer.functions.sum(x * 2)
    y.grad = numpy.ones((), numpy.float32)
    return {'retain_grad': _raises(lambda: chainer.backward(
        [y], retain_grad=True)),
        'loss_scale': _raises(lambda: chainer.backward(
            [y], loss_scale=2.0))}


@case
def backward_array_grads(chainer, inputs):
    x = _variable(chainer, inputs)
    return {'error': _raises(lambda: chainer.backward(
        [x * 3], [inputs['g'].copy()]))}


@case
def variable_backward_loss_scale_given(chainer, inputs):
    x = _variable(chainer, inputs)
    y = x * x
    y.grad = inputs['g'].copy()
    y.backward(loss_scale=8.0)
    return {'x_grad': x.grad}


@case
def variable_backward_leaf_loss_scale(chainer, inputs):
    x = chainer.Variable(numpy.ones((), numpy.float32))
    x.backward(loss_scale=4.0)
    return {'grad': x.grad}


@case
def grad_loss_scale(chainer, inputs):
    x = _variable(chainer, inputs)
    y = chainer.functions.sum(x * x)
    gx, = chainer.grad([y], [x], loss_scale=4.0)
    return {'gx': gx.array, 'x_grad': x.grad}


@case
def grad_loss_scale_given(chainer, inputs):
    x = _variable(chainer, inputs)
    y = x * x
    gx, = chainer.grad([y], [x], [chainer.Variable(inputs['g'].copy())],
                       loss_scale=4.0)
    return {'gx': gx.array}


@case
def grad_non_scalar_without_grad(chainer, inputs):
    x = _variable(chainer, inputs)
    return {'gx': chainer.grad([x * 2], [x])[0].array}


# -- 2. Link, Chain, ChainList, Sequential ------------------------------

def _mlp(chainer, inputs, seeded=False):
    """A Chain of three links and a parameter; its first layer takes W
    from the inputs, or (``seeded``) from the initializer under seed 1."""
    L = chainer.links
    numpy.random.seed(1)
    initial_w = None if seeded else inputs['w'].T.copy()

    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 4, initialW=initial_w)
                self.l2 = L.Linear(None, 2)
                self.bn = L.BatchNormalization(2)
                self.s = chainer.Parameter(
                    0.5 if seeded else inputs['x'][0].copy(), (3,))

        def forward(self, x):
            return self.bn(self.l2(self.l1(x)))

    return MLP()


def _names(pairs):
    return [name for name, _ in pairs]


@case
def chain_walks(chainer, inputs):
    m = _mlp(chainer, inputs)
    return {'params': [p.name for p in m.params()],
            'params_uninit': [p.name for p in m.params(
                include_uninit=False)],
            'namedparams': _names(m.namedparams()),
            'namedparams_uninit': _names(m.namedparams(
                include_uninit=False)),
            'links': [type(link).__name__ for link in m.links()],
            'links_skipself': [type(link).__name__
                               for link in m.links(skipself=True)],
            'namedlinks': _names(m.namedlinks()),
            'namedlinks_skipself': _names(m.namedlinks(skipself=True)),
            'children': [link.name for link in m.children()],
            'count_params': m.count_params(),
            'persistents': sorted(m._persistent),
            'bn_persistents': sorted(m.bn._persistent),
            'name': m.name, 'l1_name': m.l1.name}


@case
def chain_after_forward(chainer, inputs):
    m = _mlp(chainer, inputs)
    y = m(inputs['x'])
    y = chainer.functions.sum(y * y)
    m.cleargrads()
    y.backward()
    out = {'count_params': m.count_params(),
           'namedparams': _names(m.namedparams()),
           'grads': [p.grad is not None for p in m.params()],
           'l2_shape': m.l2.W.shape}
    m.zerograds()
    out['zeroed'] = [float(abs(p.grad).sum()) for p in m.params()]
    m.cleargrads()
    out['cleared'] = [p.grad is None for p in m.params()]
    return out


@case
def chain_copyparams_addgrads(chainer, inputs):
    a = _mlp(chainer, inputs)
    b = _mlp(chainer, inputs)
    a(inputs['x'])
    b(inputs['y'])
    for p in b.params():
        p.array[...] = 0.5
        p.grad = numpy.full_like(p.array, 0.25)
    a.cleargrads()
    a.zerograds()
    a.copyparams(b)
    out = {'copied': [p.array.tolist() for p in a.params()]}
    a.addgrads(b)
    a.addgrads(b)
    out['addgrads'] = [float(p.grad.sum()) for p in a.params()]
    b.bn.avg_mean[...] = 3.0
    a.copyparams(b, copy_persistent=False)
    out['no_persistent'] = a.bn.avg_mean
    a.copyparams(b)
    out['persistent'] = a.bn.avg_mean
    return out


@case
def chain_copy_modes(chainer, inputs):
    m = _mlp(chainer, inputs, seeded=True)
    m(inputs['x'])
    out = {}
    for mode in ('share', 'copy', 'init'):
        c = m.copy(mode=mode)
        out[f'{mode}_shared'] = c.l1.W.array is m.l1.W.array
        out[f'{mode}_same_param'] = c.l1.W is m.l1.W
        out[f'{mode}_equal'] = bool(numpy.array_equal(
            c.l1.W.array, m.l1.W.array))
        out[f'{mode}_name'] = c.name
        out[f'{mode}_names'] = _names(c.namedparams())
        out[f'{mode}_b'] = c.l1.b.array
        out[f'{mode}_avg_mean_shared'] = c.bn.avg_mean is m.bn.avg_mean
    out['default_shared'] = m.copy().l1.W.array is m.l1.W.array
    out['bad_mode'] = _raises(lambda: m.copy(mode='deep'))
    return out


@case
def chain_repeat(chainer, inputs):
    L = chainer.links
    block = chainer.Sequential(L.Linear(3, 3, initialW=inputs['w'][:, :3]),
                               chainer.functions.relu)
    out = {}
    for mode in ('share', 'copy', 'init'):
        r = block.repeat(3, mode=mode)
        out[f'{mode}_type'] = type(r).__name__
        out[f'{mode}_len'] = len(r)
        out[f'{mode}_names'] = _names(r.namedparams())
        out[f'{mode}_shared'] = r[0][0].W.array is r[1][0].W.array
        out[f'{mode}_equal'] = bool(numpy.array_equal(
            r[0][0].W.array, r[2][0].W.array))
        out[f'{mode}_output'] = r(inputs['x']).array
    out['zero_len'] = len(block.repeat(0))
    out['zero_type'] = type(block.repeat(0)).__name__
    out['negative'] = _raises(lambda: block.repeat(-1))
    return out


@case
def link_add_param_persistent(chainer, inputs):
    link = chainer.Link()
    link.add_param('a', (2, 3))
    link.add_param('b', (2,), dtype=numpy.float64, initializer=1.5)
    link.add_param('c')
    link.add_persistent('p', numpy.arange(3.0))
    link.add_persistent('q', 5)
    with link.init_scope():
        link.r = numpy.ones(2)
    link.register_persistent('r')
    return {'params': _names(link.namedparams()),
            'a_dtype': str(link.a.dtype), 'b': link.b.array,
            'b_dtype': str(link.b.dtype), 'c_init': link.c.array,
            'a_nan': bool(numpy.isnan(link.a.array).all()),
            'persistents': sorted(link._persistent), 'p': link.p,
            'q': link.q, 'q_kind': _kind(link.q),
            'dup_param': _raises(lambda: link.add_param('a', (1,))),
            'dup_persistent': _raises(lambda: link.add_persistent('p', 1)),
            'unknown_register': _raises(
                lambda: link.register_persistent('zzz')),
            'within': link.within_init_scope, 'xp': link.xp.__name__,
            'count_params': link.count_params()}


@case
def chain_add_link(chainer, inputs):
    L = chainer.links
    c = chainer.Chain()
    c.add_link('a', L.Linear(2, 3))
    out = {'names': _names(c.namedlinks()),
           'dup': _raises(lambda: c.add_link('a', L.Linear(2, 3))),
           'not_link': _raises(lambda: c.add_link('b', 3)),
           'a_name': c.a.name}
    with c.init_scope():
        c.b = L.Linear(3, 1)
        out['within'] = c.within_init_scope
        c.plain = 3
    out['after'] = c.within_init_scope
    out['names_after'] = _names(c.namedlinks())
    out['children'] = [link.name for link in c.children()]
    del c.a
    out['deleted'] = _names(c.namedparams())
    out['getitem'] = _raises(lambda: c['b'])
    return out


@case
def chainlist_api(chainer, inputs):
    L = chainer.links
    cl = chainer.ChainList(L.Linear(2, 3), L.Linear(3, 1))
    cl.append(L.Linear(1, 1))
    cl.add_link(L.Linear(1, 2))
    out = {'len': len(cl), 'names': _names(cl.namedparams()),
           'links': _names(cl.namedlinks(skipself=True)),
           'children': [link.name for link in cl.children()],
           'getitem': cl[1].name, 'negative': cl[-1].name,
           'slice': _kind(cl[1:]), 'iter': [link.name for link in cl],
           'not_link': _raises(lambda: chainer.ChainList().append(3)),
           'count_params': cl.count_params()}
    c2 = cl.copy(mode='init')
    out['copy_names'] = _names(c2.namedparams())
    nested = chainer.ChainList(cl, L.Linear(2, 2))
    out['nested'] = _names(nested.namedparams())
    return out


@case
def chainlist_edit(chainer, inputs):
    L = chainer.links
    cl = chainer.ChainList(L.Linear(2, 3), L.Linear(3, 1), L.Linear(1, 1))
    cl.insert(1, L.Linear(4, 4))
    out = {'insert': [link.name for link in cl],
           'insert_shapes': [link.W.shape for link in cl]}
    del cl[0]
    out['del'] = [link.name for link in cl]
    out['del_names'] = _names(cl.namedparams())
    out['setitem'] = _raises(lambda: cl.__setitem__(0, L.Linear(5, 5)))
    out['after_set'] = [(link.name, link.W.shape) for link in cl]
    chain = chainer.Chain()
    with chain.init_scope():
        chain.cl = cl
    out['in_chain'] = _names(chain.namedparams())
    return out


@case
def warning_categories(chainer, inputs):
    warnings = importlib.import_module('warnings')
    L = chainer.links
    calls = {
        'count_uninit': lambda: L.Linear(None, 2).count_params(),
        'variable_zerograd': lambda: _variable(chainer, inputs).zerograd(),
        'link_zerograds': lambda: L.Linear(2, 2).zerograds(),
        'one_element_backward': lambda: chainer.functions.sum(
            _variable(chainer, inputs), axis=1, keepdims=True)[:1].backward(),
    }
    out = {}
    for name, call in calls.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            call()
        out[name] = sorted({w.category.__name__ for w in caught})
    return out


@case
def link_update_enabled(chainer, inputs):
    m = _mlp(chainer, inputs)
    out = {'default': m.update_enabled}
    m.l1.disable_update()
    out['after_l1'] = [m.update_enabled, m.l1.update_enabled,
                       m.l2.update_enabled]
    out['rules'] = [p.update_rule is None or p.update_rule.enabled
                    for p in m.params()]
    m.disable_update()
    out['all'] = m.update_enabled
    m.enable_update()
    out['enabled'] = [m.update_enabled, m.l1.update_enabled]
    return out


@case
def link_lazy_and_uninit(chainer, inputs):
    L = chainer.links
    m = _mlp(chainer, inputs)
    m.zerograds()
    out = {'uninit_grad': _raises(lambda: m.l2.W.grad),
           'count': m.count_params()}
    m(inputs['x'])
    out['after_init_grad'] = m.l2.W.grad
    out['lazy_shape'] = m.l2.W.shape
    lin = L.Linear(2)
    out['one_arg'] = (lin.W.array is None, lin.b.shape, lin.in_size
                      if hasattr(lin, 'in_size') else 'no in_size')
    lin(inputs['x'])
    out['one_arg_after'] = lin.W.shape
    out['nobias'] = _names(L.Linear(3, 2, nobias=True).namedparams())
    return out


@case
def chain_attributes(chainer, inputs):
    L = chainer.links
    c = chainer.Chain()
    c.outside = L.Linear(2, 2)
    out = {'outside': _names(c.namedlinks())}
    with c.init_scope():
        c.p = chainer.Parameter(inputs['x64'].copy())
        c.child = L.Linear(2, 2)
    out['inside'] = _names(c.namedparams())
    del c.p
    out['del_param'] = _names(c.namedparams())
    del c.child
    out['del_link'] = _names(c.namedlinks())
    with c.init_scope():
        c.child = L.Linear(3, 3)
        c.child = L.Linear(1, 1)
    out['replaced'] = [p.shape for p in c.params()]
    out['collision'] = _raises(lambda: c.add_link('outside', L.Linear(1, 1)))
    out['forward_missing'] = _raises(lambda: chainer.Link()(inputs['x']))
    return out


@case
def link_copyparams_errors(chainer, inputs):
    L = chainer.links
    a = L.Linear(3, 2)
    return {'shape': _raises(lambda: a.copyparams(L.Linear(3, 3))),
            'structure': _raises(lambda: _mlp(chainer, inputs).copyparams(
                chainer.Chain())),
            'repeat_float': _raises(lambda: a.repeat(1.5)),
            'add_param_bad_name': _raises(lambda: a.add_param('W', (1,))),
            'device': str(a.device), 'to_cpu': _kind(a.to_cpu()),
            'to_device': _kind(a.to_device('@numpy'))}


@case
def link_repeat_and_deepcopy(chainer, inputs):
    copy = importlib.import_module('copy')
    L = chainer.links
    lin = L.Linear(3, 3, initialW=inputs['w'][:, :3].copy())
    r = lin.repeat(2)
    out = {'type': type(r).__name__, 'len': len(r),
           'names': _names(r.namedparams()),
           'y': r(inputs['x']).array,
           'shared': r[0].W.array is lin.W.array}
    deep = copy.deepcopy(lin)
    out['deep_shares'] = deep.W.array is lin.W.array
    out['deep_equal'] = deep.W.array
    out['deep_name'] = _names(deep.namedparams())
    m = _mlp(chainer, inputs)
    optimizer = chainer.optimizers.SGD(lr=0.5)
    optimizer.setup(m)
    m.l1.disable_update()
    out['rules'] = [p.update_rule.enabled for p in m.params()]
    m.cleargrads()
    chainer.functions.sum(m(inputs['x'])).backward()
    before = m.l1.W.array.copy()
    optimizer.update()
    out['frozen'] = bool(numpy.array_equal(before, m.l1.W.array))
    return out


def _sequential(chainer, inputs):
    L = chainer.links
    return chainer.Sequential(
        L.Linear(3, 4, initialW=inputs['w'].T.copy()),
        chainer.functions.relu,
        L.Linear(4, 2, initialW=inputs['w'][:2].copy()))


@case
def sequential_forward(chainer, inputs):
    s = _sequential(chainer, inputs)
    y = s(inputs['x'])
    return {'y': y.array, 'len': len(s), 'names': _names(s.namedparams()),
            'links': _names(s.namedlinks()),
            'children': [link.name for link in s.children()],
            'types': [type(f).__name__ for f in s]}


@case
def sequential_edit(chainer, inputs):
    L = chainer.links
    s = _sequential(chainer, inputs)
    s.append(chainer.functions.tanh)
    s.insert(1, L.Linear(4, 4, initialW=numpy.eye(4, dtype='f')))
    out = {'len': len(s), 'names': _names(s.namedparams()),
           'y': s(inputs['x']).array}
    popped = s.pop(1)
    out['popped'] = type(popped).__name__
    out['after_pop'] = _names(s.namedparams())
    del s[0]
    out['after_del'] = _names(s.namedparams())
    s[0] = chainer.functions.sigmoid
    out['set_item'] = [type(f).__name__ for f in s]
    out['set_bad'] = _raises(lambda: s.__setitem__(0, 3))
    out['append_bad'] = _raises(lambda: s.append(3))
    out['index_error'] = _raises(lambda: s[10])
    return out


@case
def sequential_slices(chainer, inputs):
    s = _sequential(chainer, inputs)
    part = s[1:]
    out = {'slice_type': type(part).__name__, 'slice_len': len(part),
           'slice_shared': part[1] is s[2], 'neg': type(s[-1]).__name__,
           'step': len(s[::2])}
    both = s + s
    out['add_type'] = type(both).__name__
    out['add_len'] = len(both)
    out['add_names'] = _names(both.namedparams())
    out['add_slice_type'] = type(both[:3]).__name__
    out['add_y'] = both(inputs['x'][:, :2].repeat(2, axis=1)[:, :3]).shape
    out['add_link'] = _raises(lambda: s + chainer.links.Linear(2, 2))
    doubled = s * 2
    out['mul_len'] = len(doubled)
    out['mul_type'] = type(doubled).__name__
    out['mul_shared'] = doubled[0] is s[0]
    out['mul_names'] = _names(doubled.namedparams())
    out['rmul_len'] = len(2 * s)
    out['iadd'] = _raises(lambda: s.__iadd__(_sequential(chainer, inputs)))
    out['iadd_len'] = len(s)
    return out


@case
def sequential_sequence_methods(chainer, inputs):
    F = chainer.functions
    s = chainer.Sequential(F.relu, F.tanh)
    s.extend([F.sigmoid, F.exp])
    out = {'extend': [f.__name__ for f in s], 'index': s.index(F.tanh),
           'count': s.count(F.relu), 'contains': F.exp in s,
           'reversed': [f.__name__ for f in reversed(s)]}
    s.remove(F.tanh)
    out['remove'] = [f.__name__ for f in s]
    out['remove_missing'] = _raises(lambda: s.remove(F.tanh))
    out['pop_default'] = s.pop().__name__
    s.clear()
    out['clear'] = len(s)
    out['empty_call'] = _raises(lambda: s(inputs['x']))
    out['copy'] = _kind(chainer.Sequential(F.relu).copy())
    return out


@case
def sequential_layer_types(chainer, inputs):
    L = chainer.links
    inner = chainer.Sequential(L.Linear(2, 2), chainer.functions.relu)
    s = chainer.Sequential(L.Linear(3, 2), inner, chainer.functions.relu,
                           L.Linear(2, 1))
    out = {'count_linear': s.count_by_layer_type('Linear'),
           'count_relu': s.count_by_layer_type('relu'),
           'flat_len': len(s.flatten()),
           'flat_types': [type(f).__name__ for f in s.flatten()]}
    s.remove_by_layer_type('Linear')
    out['removed'] = [type(f).__name__ for f in s]
    s.remove_by_layer_type('relu')
    out['removed_relu'] = [type(f).__name__ for f in s]
    return out


def _printed_links(chainer, inputs):
    L = chainer.links
    return {'linear': L.Linear(3, 2), 'linear_lazy': L.Linear(None, 2),
            'chain': _mlp(chainer, inputs),
            'chainlist': chainer.ChainList(L.Linear(2, 2)),
            'sequential': chainer.Sequential(
                L.Linear(3, 2), chainer.functions.relu),
            'nested': chainer.Sequential(chainer.Sequential(
                L.Linear(3, 2)), chainer.ChainList(L.Linear(2, 2))),
            'bn': L.BatchNormalization(3), 'empty': chainer.Chain(),
            'conv': L.Convolution2D(3, 4, 3, stride=2, pad=1),
            'embed': L.EmbedID(5, 3), 'lstm': L.LSTM(3, 4)}


@case
def link_repr(chainer, inputs):
    return {name: _unaddressed(repr(link))
            for name, link in _printed_links(chainer, inputs).items()}


@case
def link_str(chainer, inputs):
    return {name: str(link)
            for name, link in _printed_links(chainer, inputs).items()}


# -- 3. Configuration and utils -----------------------------------------

@case
def config_defaults(chainer, inputs):
    c = chainer.config
    keys = ('train', 'enable_backprop', 'debug', 'type_check',
            'cudnn_deterministic', 'use_cudnn', 'keep_graph_on_report',
            'lazy_grad_sum', 'use_ideep', 'autotune', 'schedule_func',
            'warn_nondeterministic', 'in_recomputing', 'dtype',
            'use_static_graph', 'cudnn_fast_batch_normalization',
            'use_cudnn_tensor_core')
    out = {key: str(getattr(c, key, '<missing>')) for key in keys}
    buffer = io.StringIO()
    c.show(buffer)
    # keys only one side has are compared in config_keys
    out['show'] = [line for line in buffer.getvalue().splitlines()
                   if line.split()[0] not in CONFIG_KEYS_APART]
    return out


@case
def config_keys(chainer, inputs):
    buffer = io.StringIO()
    chainer.global_config.show(buffer)
    return {'keys': sorted(line.split()[0] for line in
                           buffer.getvalue().splitlines())}


@case
def config_show_local(chainer, inputs):
    buffer = io.StringIO()
    with chainer.using_config('zz_local_key', [1, 2]):
        chainer.config.show(buffer)
        chainer.global_config.show(io.StringIO())
    lines = buffer.getvalue().splitlines()
    return {'local': [line for line in lines if 'zz_' in line],
            'width': lines[-1].index('[')}


@case
def config_using(chainer, inputs):
    out = {}
    with chainer.using_config('train', False):
        out['inside'] = chainer.config.train
        with chainer.using_config('train', True):
            out['nested'] = chainer.config.train
        out['restored_inner'] = chainer.config.train
    out['restored'] = chainer.config.train
    with chainer.using_config('new_key', 3):
        out['new_key'] = chainer.config.new_key
    out['new_key_after'] = _raises(lambda: chainer.config.new_key)
    with chainer.no_backprop_mode():
        out['no_backprop'] = chainer.config.enable_backprop
        x = chainer.Variable(inputs['x'])
        out['no_creator'] = (x * 2).creator is None
    with chainer.force_backprop_mode():
        out['force'] = chainer.config.enable_backprop
    out['unknown'] = _raises(lambda: chainer.config.zzz_unknown)
    return out


@case
def walker_alias(chainer, inputs):
    numpy.random.seed(3)
    sampler = chainer.utils.WalkerAlias(inputs['p'])
    samples = sampler.sample((4, 5))
    return {'samples': samples, 'dtype': str(samples.dtype),
            'threshold': sampler.threshold, 'values': sampler.values}


@case
def type_check_errors(chainer, inputs):
    F = chainer.functions
    x = chainer.Variable(inputs['x'])
    x64 = chainer.Variable(inputs['x64'])
    return {'shape': _raises(lambda: F.matmul(x, x)),
            'dtype': _raises(lambda: F.add(x, chainer.Variable(
                inputs['x'].astype(numpy.float64)))),
            'ndim': _raises(lambda: F.linear(x64, x64)),
            'count': _raises(lambda: F.concat([])),
            'int_relu': _raises(lambda: F.relu(chainer.Variable(
                numpy.arange(3, dtype=numpy.int32)))),
            'linear_shape': _raises(lambda: F.linear(x, chainer.Variable(
                inputs['w']))),
            'class': chainer.utils.type_check.InvalidType.__mro__[1]}


@case
def type_check_custom(chainer, inputs):
    type_check = importlib.import_module('chainer.utils.type_check')

    class Checked(chainer.FunctionNode):
        def check_type_forward(self, in_types):
            type_check.expect(in_types.size() == 1)
            x_type, = in_types
            type_check.expect(x_type.dtype == numpy.float32,
                              x_type.ndim == 2)
            type_check.expect(x_type.shape[1] == 3)

        def forward(self, xs):
            return xs[0] * 2,

    def call(array):
        return _raises(lambda: Checked().apply((array,)))

    x = inputs['x']
    out = {'ok': call(x), 'dtype': call(x.astype(numpy.float64)),
           'ndim': call(x[0]), 'shape': call(x[:, :2]),
           'count': _raises(lambda: Checked().apply((x, x)))}
    try:
        Checked().apply((x[0],))
    except type_check.InvalidType as error:
        out['expect'] = error.expect
        out['actual'] = error.actual
    with chainer.using_config('type_check', False):
        out['off'] = call(x[:, :2])
    return out


@case
def global_flags(chainer, inputs):
    out = {'is_debug': chainer.is_debug(), 'get_dtype': str(
        chainer.get_dtype())}
    chainer.set_debug(True)
    out['debug_on'] = [chainer.is_debug(), chainer.config.debug]
    chainer.set_debug(False)
    with chainer.using_config('dtype', numpy.float16):
        out['dtype16'] = str(chainer.get_dtype())
    out['mixed16'] = str(chainer.get_dtype(chainer.mixed16))
    return out


@case
def numerical_grad(chainer, inputs):
    x = inputs['x64'].copy()
    y = numpy.empty(3)

    def f():
        y[...] = x ** 3
        return y,

    g = numpy.array([1.0, 2.0, 3.0])
    numerical = importlib.import_module(
        'chainer.gradient_check').numerical_grad
    gx, = numerical(f, (x,), (g,), eps=1e-3)
    gc, = numerical(
        f, (x,), (g,), eps=1e-3, center_diff=False)
    return {'central': gx, 'forward': gc, 'x_unchanged': x}


def _cube(chainer, factor, reshape=None):
    """``x ** 3`` as a function node whose backward multiplies by ``factor
    * x ** 2`` (right with 3), reshaped to ``reshape`` if given."""
    class Cube(chainer.FunctionNode):
        def forward(self, xs):
            self.retain_inputs((0,))
            return xs[0] ** 3,

        def backward(self, indexes, grad_outputs):
            x, = self.get_retained_inputs()
            gx = grad_outputs[0] * factor * x * x
            if reshape is not None:
                gx = chainer.functions.reshape(gx, reshape)
            return gx,

    return lambda v: Cube().apply((v,))[0]


@case
def check_backward(chainer, inputs):
    gc = importlib.import_module('chainer.gradient_check')
    x = inputs['x64'].copy()
    g = numpy.array([1.0, -2.0, 0.5])

    right = _cube(chainer, 3.0)
    wrong = _cube(chainer, 2.5)

    return {'right': _raises(lambda: gc.check_backward(
        right, x, g, dtype=numpy.float64)),
        'wrong': _raises(lambda: gc.check_backward(
            wrong, x, g, dtype=numpy.float64)),
        'double': _raises(lambda: gc.check_double_backward(
            lambda v: v * v * v, x, g, g)),
        'no_grad': _raises(lambda: gc.check_backward(
            lambda v: v * 2, x, None))}


@case
def check_backward_variants(chainer, inputs):
    gc = importlib.import_module('chainer.gradient_check')
    x = inputs['x64'].copy()
    w = inputs['x64'][::-1].copy()
    g = numpy.array([1.0, -2.0, 0.5])

    def product(a, b):
        return a * b * b

    return {
        'two_inputs': _raises(lambda: gc.check_backward(
            product, (x, w), g, dtype=numpy.float64)),
        'no_grads': _raises(lambda: gc.check_backward(
            product, (x, w), g, no_grads=[False, True])),
        'wrong_shape': _raises(lambda: gc.check_backward(
            _cube(chainer, 3.0, (3, 1)), x, g)),
        'loose': _raises(lambda: gc.check_backward(
            _cube(chainer, 2.9), x, g, atol=10, rtol=10)),
        'scalar_no_grad': _raises(lambda: gc.check_backward(
            lambda v: chainer.functions.sum(v * v), x, None)),
        'int_input': _raises(lambda: gc.check_backward(
            lambda v, i: v * i, (x, numpy.arange(3)), g)),
        'params': _raises(lambda: gc.check_backward(
            lambda v: v * chainer.Parameter(w), x, g,
            params=())),
        'wrong_double': _raises(lambda: gc.check_double_backward(
            _cube(chainer, 2.5), x, g, g)),
    }


@case
def numerical_grad_kink(chainer, inputs):
    gc = importlib.import_module('chainer.gradient_check')
    x = numpy.array([0.0, 1.0])
    y = numpy.empty(2)

    def f():
        y[...] = numpy.abs(x)
        return y,

    out = {'detect': _raises(lambda: gc.numerical_grad(
        f, (x,), (numpy.ones(2),), eps=1e-3,
        detect_nondifferentiable=True))}
    out['plain'] = gc.numerical_grad(f, (x,), (numpy.ones(2),),
                                     eps=1e-3)[0]
    return out


def _hook_graph(chainer, inputs):
    x = chainer.Variable(inputs['x'])
    h = chainer.functions.relu(x * chainer.Variable(inputs['y']))
    return chainer.functions.sum(chainer.functions.exp(h))


@case
def function_hook_order(chainer, inputs):
    # The forward calls, then the order of the backward calls of the
    # graph's own functions; what their backward methods call inside is
    # left out (Kusari's backward methods are built of other functions).
    events = []
    in_backward = []

    class Record(chainer.FunctionHook):
        name = 'Record'

        def added(self, function):
            events.append(('added', function))

        def forward_preprocess(self, function, in_data):
            if not in_backward:
                events.append(('forward_pre', function.label,
                               len(in_data)))

        def forward_postprocess(self, function, in_data):
            if not in_backward:
                events.append(('forward_post', function.label))

        def backward_preprocess(self, function, in_data, out_grad):
            in_backward.append(function)
            events.append(('backward_pre', function.label,
                           [g is None for g in out_grad]))

        def backward_postprocess(self, function, in_data, out_grad):
            events.append(('backward_post', function.label))

        def deleted(self, function):
            events.append(('deleted', function))

    with Record() as hook:
        y = _hook_graph(chainer, inputs)
        y.backward()
    return {'events': [repr(e) for e in events], 'name': hook.name}


@case
def function_labels(chainer, inputs):
    x = chainer.Variable(inputs['x'])
    out = {}
    for name, y in (('add_float', x + 2.5), ('mul_float', x * 2.5),
                    ('neg_float', x * -2.5), ('pow_float', x ** 2.0),
                    ('rsub', 1.5 - x), ('sum', chainer.functions.sum(x)),
                    ('mul_int', x * 2), ('add_int', x + 3)):
        out[name] = y.creator.label
    return out


@case
def function_hook_local(chainer, inputs):
    events = []

    class Record(chainer.FunctionHook):
        def forward_preprocess(self, function, in_data):
            events.append(function.label)

    x = chainer.Variable(inputs['x'])
    node = chainer.functions.identity(x).creator
    hook = Record()
    y = chainer.functions.exp(x * 2)
    y.creator.add_hook(hook)
    return {'events': events, 'hook_name': hook.name,
            'local': sorted(y.creator.local_function_hooks),
            'identity': node.label}


@case
def function_hook_nesting(chainer, inputs):
    events = []

    def recorder(tag):
        class Record(chainer.FunctionHook):
            name = tag

            def forward_preprocess(self, function, in_data):
                events.append(f'{tag}:pre:{function.label}')

            def forward_postprocess(self, function, in_data):
                events.append(f'{tag}:post:{function.label}')

        return Record()

    x = chainer.Variable(inputs['x'])
    with recorder('outer'):
        with recorder('inner'):
            chainer.functions.exp(x)
        chainer.functions.relu(x)
    out = {'events': events}
    same = recorder('same')
    with same:
        out['duplicate'] = _raises(lambda: same.__enter__())
    return out


@case
def timer_hook_forward(chainer, inputs):
    hooks = chainer.function_hooks
    with hooks.TimerHook() as timer:
        _hook_graph(chainer, inputs)
    summary = timer.summary()
    return {'keys': sorted(summary),
            'total_kind': _kind(timer.total_time()),
            'entries': sorted((k, sorted(v)) for k, v in summary.items()),
            'calls': sorted((k, v['occurrence'])
                            for k, v in summary.items()),
            'history': [name for name, _ in timer.call_history],
            'name': timer.name}


@case
def timer_hook_backward(chainer, inputs):
    with chainer.function_hooks.TimerHook() as timer:
        _hook_graph(chainer, inputs).backward()
    return {'calls': sorted((k, v['occurrence'])
                            for k, v in timer.summary().items())}


@case
def print_hook_forward(chainer, inputs):
    hooks = chainer.function_hooks
    buffer = io.StringIO()
    with hooks.PrintHook(file=buffer):
        _hook_graph(chainer, inputs)
    out = {'text': _unaddressed(buffer.getvalue())}
    with contextlib.redirect_stdout(io.StringIO()):
        out['name'] = hooks.PrintHook().name
    return out


@case
def timer_hook_report(chainer, inputs):
    with chainer.function_hooks.TimerHook() as timer:
        _hook_graph(chainer, inputs)
    out = {}
    for unit in ('sec', 'ms', 'us', 'auto_foreach'):
        buffer = io.StringIO()
        timer.print_report(unit=unit, file=buffer)
        lines = buffer.getvalue().splitlines()
        out[unit] = [lines[0]] + [line.split()[0] for line in lines[1:]]
    out['bad_unit'] = _raises(lambda: timer.print_report(unit='h'))
    return out
