"""Joining a delegate variable to the actual outputs of a model."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.distributed.functions import _delegate


class PseudoConnect(function_node.FunctionNode):
    """Outputs its inputs after the first unchanged; backward passes their
    gradients through and gives the first (the delegate) a zero one, so
    that backward also reaches the graph behind the delegate."""

    def forward(self, inputs):
        return tuple(inputs[1:])

    def backward(self, target_input_indexes, grad_outputs):
        xp = backend.get_array_module(
            *[g for g in grad_outputs if g is not None])
        return (_delegate.delegate_grad(xp),) + tuple(grad_outputs)


def pseudo_connect(delegate_variable, *actual_variables):
    """Return ``actual_variables`` connected to ``delegate_variable``.

    The results hold the values of ``actual_variables``; backpropagating
    from them goes through ``actual_variables`` and, after them, through
    the graph behind ``delegate_variable`` (a :func:`send`'s result), which
    is how a model with several unconnected components returns one output.

    Args:
        delegate_variable (Variable): A delegate variable.
        actual_variables (Variables): The values to return.

    Returns:
        Variable, or a tuple of Variables when several are given.
    """
    if not actual_variables:
        raise ValueError('pseudo_connect: give at least one actual '
                         'variable after the delegate variable')
    outputs = PseudoConnect().apply((delegate_variable,) + actual_variables)
    return outputs[0] if len(outputs) == 1 else outputs
