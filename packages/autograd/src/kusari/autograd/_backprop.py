"""Reverse-mode traversal of the graph: ``Variable.backward``,
``chainer.backward`` and ``chainer.grad`` share it.

FunctionNodes are visited in decreasing rank, so each one runs once, after
every consumer of its outputs has contributed its gradient.
"""
import heapq
import traceback
import warnings

from kusari.array import backend
from kusari.array.configuration import using_config
from kusari.autograd import _state
from kusari.autograd.accumulation import adder
from kusari.autograd.function_node import sum_gradients
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable

_bare = Variable._bare
_pass = _state.backward_pass
_config_local = _state.config_local
_global_config = _state.global_config
_hook_state = _state.function_hooks
_check_finite = _state.check_finite
_targets_only = _state.targets_only
_post_accumulate_hooks = _state.post_accumulate_grad_hooks


def backward_from_variable(var, retain_grad, enable_double_backprop,
                           loss_scale):
    """``var.backward(...)``: start from ``var.grad`` (ones if scalar)."""
    if var._array is None:
        raise ValueError('Variable.backward: the variable holds no array')
    if var._grad_var is None:
        if var._array.size != 1:
            creator = var.creator_node
            if creator is None or not any(n._requires_grad
                                          for n in creator.inputs):
                return  # nothing to backprop to: Chainer asks for no grad
            raise ValueError(
                f'Variable.backward: the variable has shape '
                f'{var._array.shape}; set its grad first (only a '
                f'one-element variable starts from an implicit 1)')
        if var._array.ndim:
            warnings.warn(
                f'Variable.backward: starting from a variable of shape '
                f'{var._array.shape} as from a scalar is deprecated (as '
                f'in Chainer); reduce it to shape () first, or set its '
                f'grad', DeprecationWarning, stacklevel=3)
        xp = backend.get_array_module(var._array)
        var._grad_var = _bare(xp.ones_like(var._array), True)
    backward([var], [var._grad_var], retain_grad=retain_grad,
             enable_double_backprop=enable_double_backprop,
             loss_scale=loss_scale)


def backward(outputs, grad_outputs=None, *, retain_grad=False,
             enable_double_backprop=False, loss_scale=None):
    """Backpropagate from several ``outputs`` at once.

    Gradients of the leaves reached accumulate into their ``grad``; the
    outputs' own (non-leaf) ``grad`` is dropped unless ``retain_grad``.

    Args:
        outputs: a sequence of Variables.
        grad_outputs: their initial gradients (Variables or arrays); None
            (for all, or for one output) means the output's own ``grad``,
            else ones if it has one element; an output with neither is
            skipped, as in Chainer (with a RuntimeWarning when no
            ``grad_outputs`` were given).
        retain_grad: keep gradients of intermediate Variables.
        enable_double_backprop: record the graph of the backward pass.
        loss_scale: scale the initial gradients by this factor.
    """
    given = grad_outputs is not None
    outputs, grad_outputs = _per_output('backward', outputs, grad_outputs)
    starts = []
    for y, gy in zip(outputs, grad_outputs):
        gy = y._grad_var if gy is None else gy
        if gy is not None or y._array.size == 1:
            starts.append((y, gy))
        elif not given:
            warnings.warn(
                f'backward: an output of shape {y.shape} has no grad and is '
                f'skipped; set its grad or give grad_outputs',
                RuntimeWarning, stacklevel=2)
    outputs, grad_outputs = _initial_grads(
        'backward', [y for y, _ in starts], [gy for _, gy in starts],
        loss_scale)
    if loss_scale is not None:
        # An output that starts from its own grad holds the start scaled,
        # so that a leaf's grad is that start, not the sum of both.
        for (y, start), gy in zip(starts, grad_outputs):
            if start is y._grad_var:
                y._grad_var = gy
    hooked = _post_accumulate_hooks if _post_accumulate_hooks else None
    store = _leaf_store(grad_outputs, enable_double_backprop, loss_scale,
                        hooked)
    leaf_grads = _traverse(
        outputs, grad_outputs, retain_grad, enable_double_backprop,
        stop_nodes=None,
        release=None if hooked is None
        else (_consumer_counts(outputs, hooked), store))
    with using_config('enable_backprop', enable_double_backprop):
        for node, g in leaf_grads.items():
            store(node, g)
    if not retain_grad:
        # Dropped as those of the other intermediate Variables are.
        for y, _ in starts:
            if y.creator_node is not None:
                y._grad_var = None


def grad(outputs, inputs, grad_outputs, grad_inputs, set_grad, retain_grad,
         enable_double_backprop, loss_scale):
    """See :func:`kusari.autograd.function_node.grad`."""
    for name, seq in (('outputs', outputs), ('inputs', inputs),
                      ('grad_outputs', grad_outputs),
                      ('grad_inputs', grad_inputs)):
        if not isinstance(seq, (list, tuple)) and (
                seq is not None or name in ('outputs', 'inputs')):
            raise TypeError(f'grad: {name} must be a list or tuple, got '
                            f'{type(seq).__name__}')
    for y in outputs:
        if not isinstance(y, Variable):
            raise TypeError(f'grad: every element of outputs must be a '
                            f'Variable, got {type(y).__name__}')
    for x in inputs:
        # (None, as Chainer takes it: an input with no gradient.)
        if x is not None and not isinstance(x, Variable):
            raise TypeError(f'grad: every element of inputs must be a '
                            f'Variable or None, got {type(x).__name__}')
    if grad_inputs is not None and len(grad_inputs) != len(inputs):
        raise ValueError(f'grad: {len(grad_inputs)} grad_inputs given for '
                         f'{len(inputs)} inputs')
    outputs, grad_outputs = _initial_grads(
        'grad', outputs, grad_outputs, loss_scale)
    input_nodes = [None if x is None else x.node for x in inputs]
    # The grad_inputs start the inputs' gradients: they flow on to inputs
    # computed from other inputs, as in Chainer.
    initial = {}
    if grad_inputs is not None:
        for node, g_in in zip(input_nodes, grad_inputs):
            if node is not None and g_in is not None:
                initial[node] = _as_grad_variable(g_in)
    found = _traverse(outputs, grad_outputs, retain_grad,
                      enable_double_backprop,
                      stop_nodes=set(input_nodes) - {None}, initial=initial)
    results = []
    with using_config('enable_backprop', enable_double_backprop):
        for x, node in zip(inputs, input_nodes):
            gx = None if node is None else found.get(node)
            results.append(gx)
            # retain_grad keeps the inputs' gradients too, also where the
            # traversal stopped short of their creators.
            if x is not None and (set_grad or retain_grad and
                                  gx is not None):
                x._grad_var = gx
    return results


def _as_grad_variable(g):
    return g if isinstance(g, Variable) else _bare(g, True)


def _per_output(caller, outputs, grad_outputs):
    """``outputs`` and one entry of ``grad_outputs`` (None if not given)
    per output, as lists."""
    outputs = list(outputs)
    if grad_outputs is None:
        return outputs, [None] * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise ValueError(f'{caller}: {len(grad_outputs)} grad_outputs for '
                         f'{len(outputs)} outputs')
    return outputs, list(grad_outputs)


def _initial_grads(caller, outputs, grad_outputs, loss_scale):
    """The starting gradients of ``outputs`` (ones where None), checked
    and scaled."""
    outputs, grad_outputs = _per_output(caller, outputs, grad_outputs)
    grads = []
    for i, (y, gy) in enumerate(zip(outputs, grad_outputs)):
        if gy is None:
            gy = _bare(backend.get_array_module(y._array).ones_like(
                y._array), True)
        else:
            gy = _as_grad_variable(gy)
            if gy.shape != y.shape or gy.dtype != y.dtype:
                raise ValueError(
                    f'{caller}: the gradient of output {i} has shape '
                    f'{gy.shape} and dtype {gy.dtype}; expected '
                    f'{y.shape} and {y.dtype}')
        if loss_scale is not None:
            gy = _bare(force_array(gy._array * loss_scale), True)
        grads.append(gy)
    return outputs, grads


def _traverse(outputs, grad_outputs, retain_grad, enable_double_backprop,
              stop_nodes, initial=None, release=None):
    """Run every reachable backward; return the gradients left at the
    boundary: leaves (``backward``), or ``stop_nodes`` (``grad``).
    ``initial``: gradients some nodes start from (node -> Variable).
    ``release``: ``(counts, store)``, where ``counts`` maps some leaves to
    the number of function inputs they are: once that many backwards ran,
    the leaf's gradient is final, and is handed to ``store(node, grad)``
    at once instead of being returned."""
    # The gradients this pass alone holds (the sums it made, and those
    # handed over), by id, with the node whose entry of grads each is:
    # later contributions to that node are added to it in place. Once out
    # of grads it may be passed on anywhere, but only ever to other nodes
    # (a node's contributions all come before it leaves). Not while the
    # pass records a graph.
    owned = None if enable_double_backprop else {}
    outer = getattr(_pass, 'owned', None)
    _pass.owned = owned
    try:
        return _walk(outputs, grad_outputs, retain_grad,
                     enable_double_backprop, stop_nodes, owned, initial,
                     release)
    finally:
        _pass.owned = outer


def _walk(outputs, grad_outputs, retain_grad, enable_double_backprop,
          stop_nodes, owned, initial, release):
    """:func:`_traverse` with the pass's ``owned`` dict (None: record)."""
    grads = dict(initial) if initial else {}
    heap = []
    pushed = set()
    found = {}
    # With stop nodes (grad()), a function ranked below all of them cannot
    # lead to one: its inputs all rank lower still.
    min_rank = min(n.rank for n in stop_nodes) if stop_nodes else -1
    push = heapq.heappush
    pop = heapq.heappop
    # Hooks and debug mode are read once per pass; a function with local
    # hooks or its own accumulation also takes the general path.
    general = bool(_hook_state.__dict__.get('hooks')) or \
        _config_local.__dict__.get('debug', _global_config['debug'])
    with using_config('enable_backprop', enable_double_backprop):
        add = adder(owned)
        for y, gy in zip(outputs, grad_outputs):
            node = y.node
            if not node._requires_grad:
                continue
            grads[node] = add(grads[node], gy, node) if node in grads \
                else gy
            func = node.creator_node
            if func is not None and func not in pushed and \
                    func.rank >= min_rank:
                pushed.add(func)
                push(heap, (-func.rank, len(pushed), func))
        while heap:
            func = pop(heap)[2]
            refs = func.outputs
            # (An output unchained from func keeps its gradient: a leaf.)
            if len(refs) == 1:
                node = refs[0]()
                out_nodes = (node,)
                gys = (None if node is None or node.creator_node is not func
                       else grads.pop(node, None),)
            else:
                out_nodes = [ref() for ref in refs]
                gys = tuple([None if n is None or n.creator_node is not func
                             else grads.pop(n, None) for n in out_nodes])
            if stop_nodes is not None:
                for n, gy in zip(out_nodes, gys):
                    if n in stop_nodes and gy is not None:
                        found[n] = gy
            if retain_grad:
                for n, gy in zip(out_nodes, gys):
                    var = None if n is None else n._variable()
                    if var is not None and gy is not None:
                        var._grad_var = gy
            in_nodes = func.inputs
            targets = _target_indexes(in_nodes)
            if not targets:
                continue
            # (array_level: gxs are arrays, wrapped below once checked.)
            array_level = False
            if general or func._accumulates or func._local_function_hooks:
                gxs = _call_backward(func, targets, gys, grads, owned)
            elif owned is not None and func._has_array_backward:
                gxs = _array_backward(func, targets, gys)
                array_level = True
            else:
                gxs = func.backward(targets, gys)
                if len(gxs) != len(targets):
                    gxs = _targets_only(func, gxs, targets)
            for i, gx in zip(targets, gxs):
                if gx is None:
                    continue
                node = in_nodes[i]
                if array_level:
                    array = gx
                    gx = _bare(gx, False)
                else:
                    array = gx._array if isinstance(gx, Variable) else None
                if array is None or array.shape != node.shape or \
                        array.dtype != node.dtype:
                    _raise_grad_mismatch(func, i, node, gx)
                g = grads.get(node)
                grads[node] = gx if g is None else add(g, gx, node)
                creator = node.creator_node
                if creator is not None and creator not in pushed and \
                        creator.rank >= min_rank:
                    pushed.add(creator)
                    push(heap, (-creator.rank, len(pushed), creator))
            if release is not None:
                _release_final(in_nodes, targets, grads, *release)
    if stop_nodes is not None:
        # A stop node reached but never a function output: a leaf.
        for n in stop_nodes:
            if n not in found and n in grads:
                found[n] = grads[n]
        return found
    return grads


def _target_indexes(in_nodes):
    """The indexes of the input nodes that need a gradient."""
    if len(in_nodes) == 1:
        return (0,) if in_nodes[0]._requires_grad else ()
    if len(in_nodes) == 2:
        first, second = in_nodes
        if first._requires_grad:
            return (0, 1) if second._requires_grad else (0,)
        return (1,) if second._requires_grad else ()
    return tuple([i for i, n in enumerate(in_nodes) if n._requires_grad])


def _array_backward(func, targets, gys):
    """The gradients ``func.backward`` would give (a pass that records no
    graph), as arrays, from its array-level backward: no Variable in, no
    node applied."""
    in_nodes = func.inputs
    indexes = func._input_indexes_to_retain
    if indexes is None:
        inputs = (None,) * len(in_nodes)
    else:
        inputs = [None] * len(in_nodes)
        for i in indexes:
            inputs[i] = in_nodes[i].data
        inputs = tuple(inputs)
    refs = func.outputs
    indexes = func._output_indexes_to_retain
    if indexes is None:
        outputs = (None,) * len(refs)
    else:
        outputs = [None] * len(refs)
        for i, data in zip(indexes, func._retained_output_data):
            # (The node's data follows a new array set on its Variable.)
            node = refs[i]()
            outputs[i] = data if node is None or node.data is None \
                else node.data
        outputs = tuple(outputs)
    if len(gys) == 1:
        gy = gys[0]
        gy_arrays = (None if gy is None else gy._array,)
    else:
        gy_arrays = tuple([None if g is None else g._array for g in gys])
    gxs = func.array_backward(targets, gy_arrays, inputs, outputs)
    if len(gxs) != len(targets):
        gxs = _targets_only(func, gxs, targets)
    return gxs


def _call_backward(func, targets, gys, grads, owned):
    hooks = _hook_state.__dict__.get('hooks')
    if hooks or func._local_function_hooks:
        hooks = func._all_hooks(hooks or {})
        in_data = tuple([n.data for n in func.inputs])
        gy_data = tuple([None if g is None else g._array for g in gys])
        for hook in hooks:
            hook.backward_preprocess(func, in_data, gy_data)
    debug = _config_local.__dict__.get('debug', _global_config['debug'])
    in_nodes = func.inputs
    try:
        if func._accumulates:
            grad_inputs = tuple([grads.pop(in_nodes[i], None)
                                 for i in targets])
            before = grad_inputs
            gxs = func.backward_accumulate(targets, gys, grad_inputs)
            if owned:
                # A gradient the pass owned stays its own only where it
                # comes back in its place, and once.
                for g, gx in zip(grad_inputs, gxs):
                    if g is not gx or sum(x is g for x in gxs) > 1:
                        owned.pop(id(g), None)
        else:
            before = [grads.get(in_nodes[i]) for i in targets] if debug \
                else None
            gxs = func.backward(targets, gys)
            if debug:
                _check_grad_types(func, gxs)
            if len(gxs) != len(targets):
                gxs = _targets_only(func, gxs, targets)
        if debug:
            _check_grads_debug(func, targets, gxs, before)
    except Exception as error:
        _add_stack(func, error)
        raise
    if hooks:
        for hook in hooks:
            hook.backward_postprocess(func, in_data, gy_data)
    return gxs


def _add_stack(func, error):
    """Append where ``func`` was applied (recorded in debug mode) to the
    message of ``error``, raised by its backward."""
    if func.stack is not None:
        error.args = (_with_stack(func, error.args[0] if error.args else ''),
                      ) + error.args[1:]


def _with_stack(func, message):
    """``message``, and where ``func`` was applied if debug mode recorded
    it."""
    if func.stack is None:
        return message
    return (f'{message}\nStacktrace of the function is below:\n'
            + ''.join(traceback.format_list(func.stack[:-1])))


def _check_grad_types(func, gxs):
    """Debug mode: every gradient returned is a Variable or None."""
    for gx in gxs:
        if gx is not None and not isinstance(gx, Variable):
            raise ValueError(
                f'{func.label}: type of gradients returned from backward is '
                f'incorrect: {type(gx)} != expected {Variable}')


def _check_grads_debug(func, targets, gxs, before):
    """Debug mode: each gradient has its input's shape, the dtype of the
    gradient it adds to (of the input where it is the first), and no
    NaN."""
    in_nodes = func.inputs
    for i, gx, g_before in zip(targets, gxs, before):
        if gx is None:
            continue
        node = in_nodes[i]
        dtype = node.dtype if g_before is None else g_before.dtype
        for what, got, expected in (('shape', gx.shape, node.shape),
                                    ('dtype', gx.dtype, dtype)):
            if got != expected:
                raise ValueError(
                    f'{func.label}: {what} of gradients returned from '
                    f'backward is incorrect: input-index={i}, actual {got} '
                    f'!= expected {expected}')
    _check_finite(func, [None if g is None else g._array for g in gxs],
                  'backward')


def _raise_grad_mismatch(func, index, node, gx):
    if not isinstance(gx, Variable):
        raise TypeError(f'{func.label}.backward must return Variables or '
                        f'None; gradient of input {index} is a '
                        f'{type(gx).__name__}')
    # Chainer's error types: TypeError for the dtype, ValueError for the
    # shape.
    error = TypeError if gx.dtype != node.dtype else ValueError
    what = 'Dtype' if error is TypeError else 'Shape'
    got, expected = (gx.dtype, node.dtype) if error is TypeError else \
        (gx.shape, node.shape)
    raise error(_with_stack(
        func, f'{func.label}.backward: {what} of data and grad mismatch '
        f'(input {index})\ngrad: {got} != data: {expected}'))


def _leaf_store(grad_outputs, enable_double_backprop, loss_scale, hooked):
    """The function ``store(node, grad)`` that accumulates a backward
    pass's gradient of a leaf into its Variable, notes there the
    ``loss_scale`` it carries (an update rule divides by it), and calls
    the leaf's post-accumulate hooks (``hooked``: node -> hooks, or None
    for none); run inside the pass's ``enable_backprop`` configuration.

    One gradient array may reach several leaves (``y = a + b`` passes its
    gradient through unchanged); each leaf gets its own copy so that an
    in-place update of one gradient never changes another.
    """
    held = {id(g._array) for g in grad_outputs}

    def store(node, g):
        var = node._variable()
        if var is None:
            return
        var._loss_scale = loss_scale
        if var._grad_var is not g:
            if id(g._array) in held:
                g = sum_gradients(g) if enable_double_backprop else \
                    _bare(g._array.copy(), True)
            held.add(id(g._array))
            old = var._grad_var
            var._grad_var = g if old is None else sum_gradients(old, g)
        if hooked is not None:
            for hook in list(hooked.get(node, ())):
                hook(var)
    return store


def _consumer_counts(outputs, hooked):
    """For each leaf with post-accumulate hooks in the graph behind
    ``outputs``: the number of function inputs it is."""
    counts = {}
    funcs = [y.creator_node for y in outputs
             if y.node._requires_grad and y.creator_node is not None]
    seen = set(funcs)
    while funcs:
        for node in funcs.pop().inputs:
            if not node._requires_grad:
                continue
            creator = node.creator_node
            if creator is None:
                if node in hooked:
                    counts[node] = counts.get(node, 0) + 1
            elif creator not in seen:
                seen.add(creator)
                funcs.append(creator)
    return counts


def _release_final(in_nodes, targets, grads, counts, store):
    """After a backward: hand each leaf among the inputs ``targets``
    whose last consumer that was to ``store``."""
    for i in targets:
        node = in_nodes[i]
        count = counts.get(node)
        if count is None:
            continue
        if count > 1:
            counts[node] = count - 1
            continue
        del counts[node]
        g = grads.pop(node, None)
        if g is not None:
            store(node, g)


# Variable.backward and grad, defined below this module, start it here.
_state.backward_from_variable = backward_from_variable
_state.grad = grad
