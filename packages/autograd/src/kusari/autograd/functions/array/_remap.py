"""Linear maps that move elements by flat index, and their adjoints."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array._scatter import scatter_add


class Remap(function_node.FunctionNode):
    """Scatter-add the input into a flat buffer of ``size`` zeros at
    ``source`` (an index array of the input's shape), scale the buffer by
    ``weight`` (an array of ``size``, or None for 1), then gather the
    buffer at ``target`` (an index array of the output's shape).

    Gradients of gathers from a buffer (padding by reflection, strided
    views) have this form; the adjoint swaps ``source`` and ``target``, so
    the gradient of a Remap is a Remap.
    """

    def __init__(self, source, target, size, weight=None):
        self.source = source
        self.target = target
        self.size = size
        self.weight = weight

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        buffer = scatter_add(xp.zeros(self.size, x.dtype), self.source, x)
        if self.weight is not None:
            buffer *= self.weight
        return buffer[self.target],

    def backward(self, indexes, grad_outputs):
        return Remap(self.target, self.source, self.size,
                     self.weight).apply(grad_outputs)


def strided_index(xp, shape, strides, offset):
    """The flat buffer index of each element of a strided view (strides
    and offset counted in elements)."""
    index = xp.full(shape, offset, dtype=xp.intp)
    for axis, (side, stride) in enumerate(zip(shape, strides)):
        steps = xp.arange(side, dtype=xp.intp) * stride
        index += steps.reshape((side,) + (1,) * (len(shape) - axis - 1))
    return index
