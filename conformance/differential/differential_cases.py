"""Forward and gradients of the differential cases, for any Chainer-like
API: run by the test with Kusari, and by ``oracle.py`` with Chainer.

Only NumPy is imported here, so the oracle's interpreter needs nothing
but Chainer.
"""
import numpy

# name: (expression, {input name: (shape, low, high)}, dtype). Inputs and
# gradients are drawn by the test and shared through an .npz file.
CASES = {
    'add_broadcast': ('F.add(a, b, c)', {
        'a': ((2, 3), -2, 2), 'b': ((3,), -2, 2), 'c': ((2, 1), -2, 2)},
        'float64'),
    'mul_div': ('a * b / c', {
        'a': ((3, 4), -2, 2), 'b': ((1, 4), -2, 2), 'c': ((3, 1), 0.5, 2)},
        'float64'),
    'pow': ('a ** b + 2.0 ** a + a ** 3', {
        'a': ((4,), 0.5, 2), 'b': ((4,), -2, 2)}, 'float64'),
    'matmul_batched_trans': ('F.matmul(a, b, transa=True, transb=True)', {
        'a': ((2, 1, 4, 3), -2, 2), 'b': ((3, 5, 4), -2, 2)}, 'float64'),
    'matmul_vector': ('F.matmul(a, b)', {
        'a': ((4,), -2, 2), 'b': ((2, 4, 3), -2, 2)}, 'float64'),
    'sum_axis': ('F.sum(a, axis=(0, -1), keepdims=True)', {
        'a': ((2, 3, 4), -2, 2)}, 'float64'),
    'sum_to': ('F.sum_to(a, (3, 1))', {'a': ((2, 3, 4), -2, 2)},
               'float64'),
    'exp_log_tanh': ('F.exp(a) + F.log(b) * F.tanh(a)', {
        'a': ((3, 3), -2, 2), 'b': ((3, 3), 0.2, 2)}, 'float64'),
    'absolute_neg': ('-F.absolute(a - b)', {
        'a': ((5,), 1, 2), 'b': ((5,), -2, -1)}, 'float64'),
    'reshape_transpose': (
        'F.transpose(F.reshape(a, (4, -1)), (1, 0)) * 2', {
            'a': ((2, 3, 2), -2, 2)}, 'float64'),
    'broadcast_to_cast': ('F.cast(F.broadcast_to(a, (2, 3, 4)), "float64")',
                          {'a': ((3, 1), -2, 2)}, 'float32'),
    'get_item': ('F.get_item(a, (slice(None, None, -1), [0, 2, 2]))', {
        'a': ((3, 4), -2, 2)}, 'float64'),
    'broadcast_identity': ('F.identity(*F.broadcast(a, b))', {
        'a': ((2, 1), -2, 2), 'b': ((3,), -2, 2)}, 'float64'),
}


def outputs_of(api, expression, inputs):
    """The outputs of ``expression`` as a tuple of the API's Variables."""
    ys = eval(expression, {'F': api.F}, dict(inputs))
    return tuple(ys) if isinstance(ys, (tuple, list)) else (ys,)


def evaluate(api, expression, arrays, grad_outputs, grad_grads):
    """Outputs, gradients and second-order gradients of one case.

    Args:
        api: a namespace with ``F``, ``Variable`` and ``grad``.
        expression: Python source computing the outputs from the inputs.
        arrays: ``{input name: array}``.
        grad_outputs: one array per output.
        grad_grads: ``{input name: array}``, the gradients of the
            first-order gradients.

    Returns:
        ``{key: array}`` with keys ``output/i``, ``grad/name`` and
        ``grad2/name`` (zeros where a gradient does not reach an input).
    """
    names = sorted(arrays)
    xs = {name: api.Variable(arrays[name]) for name in names}
    ys = outputs_of(api, expression, xs)
    gys = [api.Variable(g) for g in grad_outputs]
    gxs = api.grad(list(ys), [xs[n] for n in names], gys,
                   enable_double_backprop=True)
    results = {f'output/{i}': y.array for i, y in enumerate(ys)}
    reached = [(n, g) for n, g in zip(names, gxs) if g is not None]
    for name in names:
        found = dict(reached).get(name)
        results[f'grad/{name}'] = _array_or_zeros(found, arrays[name])
    second = dict.fromkeys(names)
    differentiable = [(n, g) for n, g in reached if g.creator is not None]
    if differentiable:
        ggxs = api.grad([g for _, g in differentiable],
                        [xs[n] for n in names],
                        [api.Variable(grad_grads[n])
                         for n, _ in differentiable])
        second = dict(zip(names, ggxs))
    for name in names:
        results[f'grad2/{name}'] = _array_or_zeros(second[name],
                                                   arrays[name])
    return results


def _array_or_zeros(variable, like):
    if variable is None:
        return numpy.zeros_like(like)
    return numpy.asarray(variable.array)


def pack(case, arrays, grad_outputs, grad_grads):
    """The ``.npz`` entries of one case's inputs and gradients."""
    entries = {f'{case}/x/{name}': a for name, a in arrays.items()}
    entries.update({f'{case}/gy/{i}': g for i, g in enumerate(grad_outputs)})
    entries.update({f'{case}/ggx/{name}': g
                    for name, g in grad_grads.items()})
    return entries


def unpack(npz, case):
    """The inverse of :func:`pack`: arrays, grad_outputs, grad_grads."""
    parts = {}
    for key in npz:
        owner, kind, name = key.split('/')
        if owner == case:
            parts.setdefault(kind, {})[name] = npz[key]
    grad_outputs = [parts['gy'][str(i)] for i in range(len(parts['gy']))]
    return parts['x'], grad_outputs, parts['ggx']
