"""Tree-LSTM: a cell merging any number of child cells."""
from kusari.autograd.functions.activation import _gated_cell
from kusari.autograd.functions.activation.lstm import expect_cell_and_input
from kusari.autograd.utils import type_check


class TreeLSTM(_gated_cell.CellSpec):
    """One input holding gates a, i, o, f_1, ..., f_n in consecutive
    blocks along axis 1."""

    def __init__(self, n_cells):
        self.n_cells = n_cells
        self.layout = _gated_cell.GateLayout(3 + n_cells, interleaved=False)

    def check_types(self, in_types):
        n = self.n_cells
        type_check.argname(in_types, tuple(
            f'c{k}' for k in range(1, n + 1)) + ('x',))
        x_type = in_types[-1]
        for c_type in in_types[:-1]:
            expect_cell_and_input(c_type, x_type, 3 + n)
            type_check.expect(x_type.shape[0] == c_type.shape[0])

    def pre_activations(self, xs, split):
        a, i, o, *fs = split(xs[0])
        return [a], [i], o, fs

    def input_grads(self, gAs, gIs, gO, gFs, merge):
        return merge((gAs[0], gIs[0], gO) + tuple(gFs)),


def tree_lstm(*inputs):
    """Tree-LSTM unit as an activation function (Tai et al., 2015).

    ``tree_lstm(c_1, ..., c_N, x)``: with the gate pre-activations ``a,
    i, o, f_1, ..., f_N`` taken from ``x``, one block of H channels each,
    in that order along axis 1::

        c = tanh(a) * sigmoid(i) + sum_k sigmoid(f_k) * c_k
        h = sigmoid(o) * tanh(c)

    Args:
        inputs: the N >= 1 children's cell states, Variables or arrays
            (B, H, ...), then x, (B, (3 + N) H, ...) of the same dtype.

    Returns:
        tuple: ``(c, h)``, the new cell state and the output, (B, H, ...).
    """
    if len(inputs) < 2:
        raise TypeError(f'tree_lstm: expected one or more cell states and '
                        f'x, got {len(inputs)} argument(s)')
    return _gated_cell.GatedCell(TreeLSTM(len(inputs) - 1)).apply(inputs)
