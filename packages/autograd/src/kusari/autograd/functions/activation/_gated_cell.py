"""The gated memory cell behind lstm, slstm and tree_lstm.

All three compute, from cell states ``c_1 .. c_n`` and gate
pre-activations ``A_j, I_j, O, F_k`` taken from their inputs ``x``::

    c = sum_j tanh(A_j) sigmoid(I_j) + sum_k sigmoid(F_k) c_k
    h = sigmoid(O) tanh(c)

They differ only in how the pre-activations are laid out in ``x``: a
:class:`CellSpec` says that with a linear map (and its transpose, for the
gradients), written once for arrays and Variables alike.
"""
import abc
import functools
import operator

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation._grad_nodes import stable_sigmoid
from kusari.autograd.functions.activation._grad_nodes import zeros_for_none
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.array.get_item import GetItemGrad
from kusari.autograd.functions.array.get_item import get_item


class GateLayout:
    """``n_gates`` gate arrays of shape (B, H, ...) stored in the channel
    axis of an x of shape (B, n_gates * H, ...): interleaved (channel
    ``n_gates * j + g`` is unit j of gate g) or in consecutive blocks."""

    def __init__(self, n_gates, interleaved):
        self.n_gates = n_gates
        self.interleaved = interleaved

    def _grouped_shape(self, shape):
        units = shape[1] // self.n_gates
        middle = ((units, self.n_gates) if self.interleaved
                  else (self.n_gates, units))
        return shape[:1] + middle + shape[2:]

    def split(self, x):
        """The gates of the array x, as views."""
        grouped = x.reshape(self._grouped_shape(x.shape))
        if self.interleaved:
            return tuple([grouped[:, :, g] for g in range(self.n_gates)])
        return tuple([grouped[:, g] for g in range(self.n_gates)])

    def merge(self, gates):
        """The array x holding the given gate arrays."""
        first = gates[0]
        shape = first.shape[:1] + (first.shape[1] * self.n_gates,) + \
            first.shape[2:]
        x = backend.get_array_module(first).empty(shape, first.dtype)
        for view, gate in zip(self.split(x), gates):
            view[...] = gate
        return x

    def split_variable(self, x):
        """The gates of the Variable x."""
        return SplitGates(self).apply((x,))

    def merge_variable(self, gates):
        """The Variable x holding the given gate Variables."""
        return MergeGates(self).apply(gates)[0]


class SplitGates(function_node.FunctionNode):
    """x -> its gates (views); the adjoint of :class:`MergeGates`."""

    def __init__(self, layout):
        self.layout = layout

    def forward(self, inputs):
        x, = inputs
        gates = self.layout.split(x)
        self._gate = gates[0]
        return gates

    def backward(self, indexes, grad_outputs):
        grads = zeros_for_none(grad_outputs,
                               (self._gate,) * len(grad_outputs))
        return MergeGates(self.layout).apply(grads)


class MergeGates(function_node.FunctionNode):
    """Gates -> the x holding them; the adjoint of :class:`SplitGates`."""

    def __init__(self, layout):
        self.layout = layout

    def forward(self, inputs):
        return self.layout.merge(inputs),

    def backward(self, indexes, grad_outputs):
        return SplitGates(self.layout).apply(grad_outputs)


class CellSpec(abc.ABC):
    """What distinguishes lstm, slstm and tree_lstm.

    Attributes:
        n_cells (int): the number of cell-state inputs ``c_k``.
        layout (GateLayout): how the gates sit in each ``x``.
    """

    n_cells = 1
    layout = None

    @abc.abstractmethod
    def check_types(self, in_types):
        """Type-check ``(c_1, ..., c_n, x_1, ..., x_m)``."""

    @abc.abstractmethod
    def pre_activations(self, xs, split):
        """``([A_j], [I_j], O, [F_1, ..., F_n])`` from the inputs ``xs``,
        with
        ``split`` (the layout's ``split`` or ``split_variable``): a linear
        map of the xs."""

    @abc.abstractmethod
    def input_grads(self, gAs, gIs, gO, gFs, merge):
        """The gradients of the xs from those of the pre-activations: the
        transpose of :meth:`pre_activations`."""


def _activations(pre_as, pre_is, pre_o, pre_fs, xp):
    """tanh(A_j), sigmoid(I_j), sigmoid(O) and sigmoid(F_k), on arrays."""
    return ([xp.tanh(p) for p in pre_as],
            [stable_sigmoid(xp, p.copy()) for p in pre_is],
            stable_sigmoid(xp, pre_o.copy()),
            [stable_sigmoid(xp, p.copy()) for p in pre_fs])


class GatedCell(function_node.FunctionNode):
    """(c_1, ..., c_n, x_1, ..., x_m) -> (c, h).

    The cells may have more rows than the xs (lstm with a shrinking
    batch, where n is 1): those rows of c_1 pass through to c unchanged.
    """

    def __init__(self, spec):
        self.spec = spec

    @property
    def label(self):
        return type(self.spec).__name__

    def check_type_forward(self, in_types):
        self.spec.check_types(in_types)

    def forward(self, inputs):
        spec = self.spec
        cells = inputs[:spec.n_cells]
        xs = inputs[spec.n_cells:]
        xp = backend.get_array_module(*inputs)
        self.retain_inputs(tuple(range(len(inputs))))
        self.retain_outputs((0,))
        batch = len(xs[0])
        as_, is_, o, fs = _activations(
            *spec.pre_activations(xs, spec.layout.split), xp)
        c = as_[0] * is_[0]
        for a, i in zip(as_[1:], is_[1:]):
            c += a * i
        for f, c_k in zip(fs, cells):
            f *= c_k[:batch]
            c += f
        h = xp.tanh(c)
        h *= o
        if len(cells[0]) > batch:
            c = xp.concatenate((c, cells[0][batch:]))
        return c, h

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        c, = self.get_retained_outputs()
        batch = len(inputs[self.spec.n_cells])
        gc, gh = zeros_for_none(grad_outputs,
                                (c.array, c.array[:batch]))
        return GatedCellGrad(self.spec).apply(inputs + (c, gc, gh))


class CellGradFunction:
    """The gradient of a cell as a function of its own, called as
    Chainer's old-style ``LSTMGrad()(c_1..c_n, x_1..x_m, c, gc, gh)``:
    each call applies a fresh :class:`GatedCellGrad` (so the result is
    differentiable again) and returns ``(gc_1..gc_n, gx_1..gx_m)``.

    Subclasses name their cell's spec in ``spec_class``.
    """

    spec_class = None

    def __call__(self, *inputs):
        return GatedCellGrad(self.spec_class()).apply(inputs)


class GatedCellGrad(function_node.FunctionNode):
    """(c_1..c_n, x_1..x_m, c, gc, gh) -> (gc_1..gc_n, gx_1..gx_m).

    With t = tanh(c) and S = gc + gh o (1 - t^2), the gradient reaching c:
    gA_j = S i_j (1 - a_j^2), gI_j = S a_j i_j (1 - i_j), gO = gh t o (1 - o),
    gF_k = S c_k f_k (1 - f_k) and gc_k = S f_k.
    """

    def __init__(self, spec):
        self.spec = spec

    def forward(self, inputs):
        spec = self.spec
        n = spec.n_cells
        cells = inputs[:n]
        xs = inputs[n:-3]
        c, gc, gh = inputs[-3:]
        xp = backend.get_array_module(*inputs)
        self.retain_inputs(tuple(range(len(inputs))))
        batch = len(xs[0])
        as_, is_, o, fs = _activations(
            *spec.pre_activations(xs, spec.layout.split), xp)
        t = xp.tanh(c[:batch])
        one = c.dtype.type(1)
        S = one - t * t
        S *= o
        S *= gh
        S += gc[:batch]
        gAs = [S * i * (one - a * a) for a, i in zip(as_, is_)]
        gIs = [S * a * i * (one - i) for a, i in zip(as_, is_)]
        gO = gh * t * o * (one - o)
        gFs = [S * c_k[:batch] * f * (one - f) for f, c_k in zip(fs, cells)]
        gcells = [S * f for f in fs]
        if len(c) > batch:
            gcells[0] = xp.concatenate((gcells[0], gc[batch:]))
        gxs = spec.input_grads(gAs, gIs, gO, gFs, spec.layout.merge)
        return tuple(gcells) + tuple(gxs)

    def backward(self, indexes, grad_outputs):
        spec = self.spec
        n = spec.n_cells
        inputs = self.get_retained_inputs()
        cells = inputs[:n]
        xs = inputs[n:-3]
        c, gc, gh = inputs[-3:]
        batch = len(xs[0])
        rows = len(c)
        ggs = zeros_for_none(
            grad_outputs, [v.array for v in cells + xs])
        gg_cells = ggs[:n]
        layout = spec.layout
        ggAs, ggIs, ggO, ggFs = spec.pre_activations(
            ggs[n:], layout.split_variable)
        pre_as, pre_is, pre_o, pre_fs = spec.pre_activations(
            xs, layout.split_variable)

        def head(v):
            return v if rows == batch else get_item(v, slice(None, batch))

        def pad(v):
            if rows == batch:
                return v
            return GetItemGrad((slice(None, batch),), c.shape,
                               c.dtype).apply((v,))[0]

        as_ = [tanh(p) for p in pre_as]
        is_ = [sigmoid(p) for p in pre_is]
        o = sigmoid(pre_o)
        fs = [sigmoid(p) for p in pre_fs]
        cells_h = [head(c_k) for c_k in cells]
        gg_cells_h = [head(g) for g in gg_cells]
        t = tanh(head(c))
        das, dis, do = [1 - a * a for a in as_], [i * (1 - i) for i in is_], \
            o * (1 - o)
        dfs = [f * (1 - f) for f in fs]
        dt = 1 - t * t
        S = gh * o * dt + head(gc)

        # The gradient w.r.t. S, then w.r.t. what S and the outputs use.
        pairs = list(zip(as_, is_, das, dis, ggAs, ggIs))
        gS = functools.reduce(operator.add, [
            ggA * i * da + ggI * a * di
            for a, i, da, di, ggA, ggI in pairs
        ] + [
            ggF * c_k * df + ggc_k * f
            for ggF, c_k, df, ggc_k, f in zip(ggFs, cells_h, dfs, gg_cells_h,
                                              fs)])
        g_as = [S * (di * ggI - 2 * a * i * ggA) * da
                for a, i, da, di, ggA, ggI in pairs]
        g_is = [S * (da * ggA + a * (1 - 2 * i) * ggI) * di
                for a, i, da, di, ggA, ggI in pairs]
        g_o = gh * (t * (1 - 2 * o) * ggO + gS * dt)
        g_t = gh * (do * ggO - 2 * gS * o * t)
        g_gh = t * do * ggO + gS * o * dt
        g_fs = [S * (c_k * (1 - 2 * f) * ggF + ggc_k)
                for c_k, f, ggF, ggc_k in zip(cells_h, fs, ggFs, gg_cells_h)]
        g_cells = [pad(S * df * ggF) for df, ggF in zip(dfs, ggFs)]
        g_xs = spec.input_grads(
            g_as, g_is, g_o * do,
            [g_f * df for g_f, df in zip(g_fs, dfs)], layout.merge_variable)
        g_c = pad(g_t * dt)
        g_gc = gS if rows == batch else gg_cells[0] + pad(gS - gg_cells_h[0])
        return tuple(g_cells) + tuple(g_xs) + (g_c, g_gc, g_gh)
