"""Transposing a batch of sequences into a sequence of batches."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._concat_split import zeros_for_missing
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable


class TransposeSequence(function_node.FunctionNode):
    """``ys[t] = stack([x[t] for x in xs if len(x) > t])`` for inputs in
    order of non-increasing length; the transpose of the output is the
    input, so the gradient is this function again."""

    def check_type_forward(self, in_types):
        _axes.name_sequence(in_types, 'xs')
        for x_type in in_types:
            type_check.expect(x_type.ndim >= 1)
        for previous, x_type in zip(in_types, in_types[1:]):
            type_check.expect(x_type.dtype == previous.dtype,
                              previous.shape[0] >= x_type.shape[0],
                              previous.shape[1:] == x_type.shape[1:])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._in_shapes = [x.shape for x in inputs]
        lengths = numpy.array([len(x) for x in inputs])
        steps = int(lengths[0]) if len(lengths) else 0
        if not steps:
            self._out_shapes = []
            return ()
        # One gather from the sequences end to end, instead of a copy per
        # row: row t * B_t + i of it is row t of sequence i, time-major.
        time = numpy.arange(steps)[:, None]
        rows = (numpy.cumsum(lengths) - lengths + time)[time < lengths]
        steps_of = xp.concatenate(inputs).take(xp.asarray(rows), axis=0)
        batches = (time < lengths).sum(axis=1)
        ys = xp.split(steps_of, numpy.cumsum(batches)[:-1].tolist())
        self._out_shapes = [y.shape for y in ys]
        return tuple(ys)

    def backward(self, indexes, grad_outputs):
        like = next(g for g in grad_outputs if g is not None).array
        gys = zeros_for_missing(grad_outputs, self._out_shapes, like)
        gxs = TransposeSequence().apply(gys)
        # Empty sequences at the end have no row in the output.
        missing = self._in_shapes[len(gxs):]
        return gxs + tuple(Variable(zeros) for zeros in zeros_for_missing(
            (None,) * len(missing), missing, like))


def transpose_sequence(xs):
    """Transpose a list of sequences (sorted by non-increasing length)
    into a list of time steps: ``ys[t][i] = xs[i][t]``.

    Args:
        xs: a sequence of Variables or arrays of shapes ``(L_i, ...)``,
            with ``L_0 >= L_1 >= ...``.

    Returns:
        A tuple of ``L_0`` Variables; ``ys[t]`` holds one row for each
        sequence longer than ``t``.
    """
    xs = tuple(xs)
    if not xs:
        return ()
    return TransposeSequence().apply(xs)
