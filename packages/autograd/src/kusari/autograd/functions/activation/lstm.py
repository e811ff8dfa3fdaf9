"""Long short-term memory unit."""
from kusari.autograd.functions.activation import _gated_cell
from kusari.autograd.utils import type_check


def expect_cell_and_input(c_type, x_type, n_gates):
    """Type-check a cell state (B', H, ...) and its gate input
    (B, n_gates * H, ...) of the same dtype and trailing shape."""
    type_check.expect(
        c_type.dtype.kind == 'f',
        x_type.dtype == c_type.dtype,
        c_type.ndim >= 2,
        x_type.ndim == c_type.ndim,
        x_type.shape[1] == n_gates * c_type.shape[1],
    )
    for axis in range(2, type_check.eval(c_type.ndim)):
        type_check.expect(x_type.shape[axis] == c_type.shape[axis])


class LSTM(_gated_cell.CellSpec):
    """x holds the gates a, i, f, o interleaved along axis 1."""

    layout = _gated_cell.GateLayout(4, interleaved=True)

    def check_types(self, in_types):
        type_check.argname(in_types, ('c_prev', 'x'))
        c_type, x_type = in_types
        expect_cell_and_input(c_type, x_type, 4)
        type_check.expect(x_type.shape[0] <= c_type.shape[0])

    def pre_activations(self, xs, split):
        a, i, f, o = split(xs[0])
        return [a], [i], o, [f]

    def input_grads(self, gAs, gIs, gO, gFs, merge):
        return merge((gAs[0], gIs[0], gFs[0], gO)),


class LSTMGrad(_gated_cell.CellGradFunction):
    """``LSTMGrad()(c_prev, x, c, gc, gh)``: the gradients ``(gc_prev,
    gx)`` of :func:`lstm` given its output cell ``c`` and the gradients
    ``gc``, ``gh`` of its outputs (Chainer's name)."""

    spec_class = LSTM


def lstm(c_prev, x):
    """Long short-term memory unit as an activation function.

    With the gate pre-activations ``a, i, f, o`` taken from ``x``::

        c = tanh(a) * sigmoid(i) + sigmoid(f) * c_prev
        h = sigmoid(o) * tanh(c)

    The gates are interleaved along axis 1 of ``x``: channel ``4 * j + g``
    holds unit ``j`` of gate ``g`` (a, i, f, o for g = 0, 1, 2, 3), so
    ``x`` is what a linear layer of ``4 * H`` outputs gives. If ``x`` has
    fewer rows than ``c_prev`` (a batch of shrinking sequences), only the
    first ``len(x)`` rows of the cell are updated; the others pass to
    ``c`` unchanged.

    Args:
        c_prev: Variable or array (B', H, ...), the previous cell state.
        x: Variable or array (B, 4 H, ...) of c_prev's dtype, B <= B'.

    Returns:
        tuple: ``(c, h)``, the new cell state (B', H, ...) and the output
        (B, H, ...).
    """
    return _gated_cell.GatedCell(LSTM()).apply((c_prev, x))
