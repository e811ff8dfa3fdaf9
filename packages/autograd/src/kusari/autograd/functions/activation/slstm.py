"""S-LSTM: a cell merging two LSTM cells (a node of a binary tree)."""
from kusari.autograd.functions.activation import _gated_cell
from kusari.autograd.functions.activation.lstm import expect_cell_and_input
from kusari.autograd.utils import type_check


class SLSTM(_gated_cell.CellSpec):
    """Two inputs holding gates a, i, f, o interleaved along axis 1; each
    gives its own a i and f c terms, their o add up."""

    n_cells = 2
    layout = _gated_cell.GateLayout(4, interleaved=True)

    def check_types(self, in_types):
        type_check.argname(in_types, ('c_prev1', 'c_prev2', 'x1', 'x2'))
        c1_type, c2_type, x1_type, x2_type = in_types
        expect_cell_and_input(c1_type, x1_type, 4)
        expect_cell_and_input(c2_type, x2_type, 4)
        type_check.expect(
            c2_type.shape == c1_type.shape,
            x1_type.shape[0] == c1_type.shape[0],
            x2_type.shape[0] == c1_type.shape[0],
        )

    def pre_activations(self, xs, split):
        a1, i1, f1, o1 = split(xs[0])
        a2, i2, f2, o2 = split(xs[1])
        return [a1, a2], [i1, i2], o1 + o2, [f1, f2]

    def input_grads(self, gAs, gIs, gO, gFs, merge):
        return tuple([merge(gates) for gates in zip(gAs, gIs, gFs, (gO, gO))])


class SLSTMGrad(_gated_cell.CellGradFunction):
    """``SLSTMGrad()(c_prev1, c_prev2, x1, x2, c, gc, gh)``: the gradients
    ``(gc_prev1, gc_prev2, gx1, gx2)`` of :func:`slstm` given its output
    cell ``c`` and the gradients ``gc``, ``gh`` of its outputs (Chainer's
    name)."""

    spec_class = SLSTM


def slstm(c_prev1, c_prev2, x1, x2):
    """S-LSTM unit as an activation function (Zhu et al., 2015).

    With the gate pre-activations ``a_k, i_k, f_k, o_k`` taken from
    ``x_k`` as in :func:`lstm` (interleaved along axis 1)::

        c = tanh(a_1) * sigmoid(i_1) + tanh(a_2) * sigmoid(i_2)
            + sigmoid(f_1) * c_prev1 + sigmoid(f_2) * c_prev2
        h = sigmoid(o_1 + o_2) * tanh(c)

    Args:
        c_prev1: Variable or array (B, H, ...), the first child's cell.
        c_prev2: Variable or array (B, H, ...), the second child's cell.
        x1: Variable or array (B, 4 H, ...), gates from the first child.
        x2: Variable or array (B, 4 H, ...), gates from the second child.

    Returns:
        tuple: ``(c, h)``, the new cell state and the output, (B, H, ...).
    """
    return _gated_cell.GatedCell(SLSTM()).apply((c_prev1, c_prev2, x1, x2))
