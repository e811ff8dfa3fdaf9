"""Every node a record applies that has an array-level backward
(``FunctionNode.array_backward``, which a static_graph replay calls) gives
exactly the gradients its ``backward`` gives on Variables: the same
arrays, bit for bit on NumPy (on a GPU to a few units in the last place,
where atomic scatter-adds sum in no fixed order), for each of the
record's dtypes; and where it also adds them into given arrays
(``array_backward_add``), the sums are right."""
import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

import records  # noqa: F401
from harness import checks
from harness.profiles import conformance_settings
from harness.record import chosen
from kusari.array import backend
from kusari.autograd import Variable
from kusari.array import configuration


def _cases():
    return [pytest.param(record, dtype, id=f'{record.name}-{dtype.name}')
            for record in chosen() for dtype in record.dtypes]


def _nodes(outputs):
    """The nodes of the graph that made ``outputs``, each once."""
    seen = {}
    stack = [y.creator for y in outputs if y.creator is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen[id(node)] = node
        stack.extend(x.creator for x in node.inputs
                     if x.creator is not None)
    return list(seen.values())


def _retained(indexes, data, count):
    arrays = [None] * count
    for i, array in zip(indexes or (), data):
        arrays[i] = array
    return tuple(arrays)


def _per_target(gxs, targets):
    gxs = list(gxs)
    return gxs if len(gxs) == len(targets) else [gxs[i] for i in targets]


def _check_node(node, rng, device):
    targets = tuple([i for i, x in enumerate(node.inputs) if x.requires_grad])
    if not targets:
        return
    xp = device.xp
    gys = []
    for ref in node.outputs:
        out = ref()
        gys.append(None if out is None or out.dtype.kind != 'f' else
                   xp.asarray(rng.uniform(-1, 1, out.shape).astype(
                       out.dtype)))
    inputs = _retained(
        node._input_indexes_to_retain,
        [node.inputs[i].data for i in node._input_indexes_to_retain or ()],
        len(node.inputs))
    outputs = _retained(node._output_indexes_to_retain,
                        node._retained_output_data or (), len(node.outputs))
    with configuration.using_config('enable_backprop', False):
        expected = _per_target(node.backward(targets, tuple(
            [None if g is None else Variable(g) for g in gys])), targets)
        actual = _per_target(
            node.array_backward(targets, tuple(gys), inputs, outputs),
            targets)
    for i, a, b in zip(targets, actual, expected):
        b = None if b is None else b.array
        assert (a is None) == (b is None), (
            f'{node.label}: input {i}: array_backward gave {a!r}, backward '
            f'{b!r}')
        if a is not None:
            assert type(a) is type(b) and a.dtype == b.dtype and \
                a.shape == b.shape, (
                    f'{node.label}: input {i}: array_backward gave '
                    f'{type(a).__name__} {a.dtype} {a.shape}, backward '
                    f'{type(b).__name__} {b.dtype} {b.shape}')
            numpy.testing.assert_allclose(
                backend.to_device('@numpy', a), backend.to_device('@numpy', b),
                err_msg=f'{node.label}: gradient of input {i}',
                **checks.summation_order_tolerance(
                    device, a.dtype, {'rtol': 0, 'atol': 0}))
    if hasattr(node, 'array_backward_add'):
        _check_add(node, targets, gys, inputs, outputs, expected)


def _check_add(node, targets, gys, inputs, outputs, expected):
    """``array_backward_add`` adds into the arrays it is given, or leaves
    the gradient to add: the sums are the gradients (to rounding: a fused
    product-sum may round otherwise)."""
    into = tuple([None if b is None else b.array.copy() for b in expected])
    with configuration.using_config('enable_backprop', False):
        left = _per_target(node.array_backward_add(
            targets, tuple(gys), inputs, outputs, into), targets)
    for i, a, b, total in zip(targets, left, expected, into):
        if b is None:
            continue
        if a is not None:
            total = total + a
        numpy.testing.assert_allclose(
            backend.to_device('@numpy', total),
            backend.to_device('@numpy', 2 * b.array), rtol=1e-3, atol=1e-3,
            err_msg=f'{node.label}: gradient of input {i} added')


@pytest.mark.parametrize('record, dtype', _cases())
@conformance_settings
@given(data=st.data())
def test_array_backward_equals_backward(record, dtype, device, data):
    with device:
        case = checks.draw_case(data.draw, record, dtype, device)
        xs = [Variable(x, requires_grad=x.dtype.kind == 'f')
              for x in case.inputs]
        ys = case.call(*xs)
        ys = ys if isinstance(ys, tuple) else (ys,)
        nodes = [node for node in _nodes(
            [y for y in ys if isinstance(y, Variable)])
            if node._has_array_backward]
        if not nodes:
            pytest.skip('no node with an array-level backward')
        rng = numpy.random.RandomState(0)
        for node in nodes:
            _check_node(node, rng, device)
