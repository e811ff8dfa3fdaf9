"""One function's step of a backward pass, for code that walks the graph
itself (Chainer's ``chainer._backprop_utils``).

Chainer keeps the gradients of a backward pass as lists per input node
(summed lazily with ``config.lazy_grad_sum``); :func:`backprop_step` takes
that form and runs the step Kusari's traversal runs for each function
(``backward`` or ``backward_accumulate``, with the function hooks and the
checks of debug mode).
"""
from kusari.array.configuration import config
from kusari.array.configuration import using_config
from kusari.autograd import _backprop


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs,
                  is_debug):
    """Add the gradients of ``func``'s inputs to ``grad_inputs``.

    Args:
        func (FunctionNode): The function whose backward runs.
        target_input_indexes (tuple of int): Sorted indexes of the inputs
            that need a gradient.
        grad_outputs (tuple): Gradients of the outputs (None where none).
        grad_inputs (dict): Input node -> list of its gradients so far; the
            new gradients are appended (and each list summed into one
            unless ``config.lazy_grad_sum``).
        is_debug (bool): Run debug mode's checks of the gradients.
    """
    in_nodes = func.inputs
    targets = tuple(target_input_indexes)
    grads = {}
    for i in targets:
        node = in_nodes[i]
        if node not in grads:
            g = _reduce(grad_inputs[node])
            if g is not None:
                grads[node] = g
    with using_config('debug', is_debug):
        gxs = _backprop._call_backward(func, targets, tuple(grad_outputs),
                                       grads, None)
    for i in targets:
        # backward_accumulate took the gradient it adds to (and returns the
        # sum in its place).
        if in_nodes[i] not in grads:
            del grad_inputs[in_nodes[i]][:]
    for i, gx in zip(targets, gxs):
        if gx is not None and gx.array is not None:
            grad_inputs[in_nodes[i]].append(gx)
    if not config.lazy_grad_sum:
        for grad_list in grad_inputs.values():
            _reduce(grad_list)


def _reduce(grad_list):
    """The sum of the gradients in ``grad_list`` (None if empty), left in
    it as its one element."""
    if not grad_list:
        return None
    if len(grad_list) > 1:
        total = grad_list[0]
        for g in grad_list[1:]:
            total = total + g
        grad_list[:] = [total]
    return grad_list[0]
