"""What the communication functions share: delegate variables, and
gradients filled in where an output was unused."""
import numpy

from kusari.array import backend
from kusari.autograd import variable


def delegate_array(xp=numpy):
    """The data of a delegate variable: a float32 scalar zero (one
    element, so ``backward()`` can start from it)."""
    return xp.zeros((), numpy.float32)


def delegate_variable():
    """A fresh delegate variable, standing for the input of a function
    that receives everything it outputs: it connects the outputs to a
    graph, so backward runs through the function."""
    return variable.Variable(delegate_array())


def delegate_grad(xp=numpy):
    """The gradient of a delegate variable (zero), as a Variable."""
    return variable.Variable(delegate_array(xp))


def output_specs(outputs):
    """``(shape, dtype)`` of each output, to fill unused gradients."""
    return [(y.shape, y.dtype) for y in outputs]


def filled_grads(grad_outputs, specs):
    """The arrays of ``grad_outputs``, zeros where a gradient is None."""
    present = [g for g in grad_outputs if g is not None]
    xp = backend.get_array_module(*present)
    return tuple(xp.zeros(shape, dtype) if g is None else g.array
                 for g, (shape, dtype) in zip(grad_outputs, specs))
