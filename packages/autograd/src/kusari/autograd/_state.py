"""The engine's shared state, below FunctionNode and the backward pass.

Both ``FunctionNode.apply`` and the backward traversal read the
configuration and the registered function hooks for every function they
run, and the traversal shares with ``backward_accumulate`` implementations
which gradients it alone holds. That state lives here, with the two checks
both make, so that neither module reaches into the other's private names.
"""
import threading
import weakref

from kusari.array import backend
from kusari.array import configuration

# ``config.<key>`` without the LocalConfig.__getattr__ call, for the hot
# path: a key set in this thread (``config_local``), else the global value.
config_local = configuration.config_local
global_config = configuration.global_config.__dict__

# This thread's global function hooks: ``hooks.hooks`` is the dict
# ``name -> hook`` once one was registered (see function_hook).
function_hooks = threading.local()

# The running backward pass: ``backward_pass.owned`` is the dict ``id ->
# VariableNode`` of the gradients it alone holds (None while it records a
# graph, absent outside a pass); see kusari.autograd.accumulation.
backward_pass = threading.local()

# The hooks a backward pass calls once it has accumulated a leaf's
# gradient: VariableNode -> list of callables taking the Variable (see
# Variable.register_post_accumulate_grad_hook). Empty, a pass does no work
# for them.
post_accumulate_grad_hooks = weakref.WeakKeyDictionary()

# The two ways into the backward traversal, ``Variable.backward`` and
# ``grad``, are defined below it (the traversal applies FunctionNodes and
# makes Variables); kusari.autograd._backprop sets them here when it is
# imported, which importing kusari.autograd does.
backward_from_variable = None
grad = None


def check_finite(func, arrays, phase):
    """Debug mode: raise if one of ``func``'s ``arrays`` (its outputs on
    ``'forward'``, its input gradients on ``'backward'``) holds a NaN."""
    for i, array in enumerate(arrays):
        if array is None or array.dtype.kind not in 'fc':
            continue
        xp = backend.get_array_module(array)
        if bool(xp.isnan(array).any()):
            raise RuntimeError(
                f'NaN is detected on {phase} computation of {func.label} '
                f'(output {i}; debug mode)')


def targets_only(func, gxs, targets):
    """The gradients of the ``targets`` (input indexes), from the one
    gradient per input ``func.backward`` returned."""
    n_inputs = len(func.inputs)
    if len(gxs) != n_inputs:
        expected = str(n_inputs) if n_inputs == len(targets) else \
            f'{n_inputs} or {len(targets)}'
        raise ValueError(
            f'{func.label}: number of gradients returned from backward is '
            f'incorrect: {len(gxs)} != expected {expected} (one per input, '
            f'or one per target index)')
    return [gxs[i] for i in targets]
