"""Embedding lookup: rows of a matrix selected by integer ids."""
import numpy

from kusari.array import backend
from kusari.autograd import accumulation
from kusari.autograd import function_node
from kusari.autograd.functions.array import _scatter
from kusari.autograd.utils import type_check


def _valid_ids(func_name, x, n_vocab, ignore_label):
    """The ids of ``x`` with ``ignore_label`` entries set to 0, and the
    mask of those entries (None when there is no ignore_label); raises if
    an id is outside ``[0, n_vocab)``."""
    xp = backend.get_array_module(x)
    ignored = None
    if ignore_label is not None:
        ignored = x == ignore_label
        x = xp.where(ignored, 0, x)
    if x.size and (bool((x < 0).any()) or bool((x >= n_vocab).any())):
        raise ValueError(
            f'{func_name}: ids in x must be in [0, {n_vocab}) (the rows of '
            f'W) or equal ignore_label={ignore_label}; got values from '
            f'{int(x.min())} to {int(x.max())}')
    return x, ignored


class EmbedIDFunction(function_node.FunctionNode):
    """y = W[x]; rows of ids equal to ``ignore_label`` are zero."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'W'))
        x_type, w_type = in_types
        type_check.expect(
            type_check.is_in(x_type.dtype.kind, 'iu'),
            w_type.dtype.kind == 'f', w_type.ndim == 2)

    def forward(self, inputs):
        x, W = inputs
        self.retain_inputs((0,))
        self._w_shape = W.shape
        ids, ignored = _valid_ids('embed_id', x, W.shape[0],
                                  self.ignore_label)
        y = W.take(ids, axis=0)
        if ignored is not None:
            y[ignored] = 0
        return y,

    def _grad(self):
        """The node of W's gradient."""
        return EmbedIDGrad(self._w_shape, self.ignore_label)

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return None, self._grad().apply((x, grad_outputs[0]))[0]

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return None, self._grad().forward((inputs[0], grad_outputs[0]))[0]

    def array_backward_add(self, indexes, grad_outputs, inputs, outputs,
                           into):
        """:meth:`array_backward`, with W's gradient rows added into its
        array in ``into`` (an array the caller lets it add into, or None)
        in place; then nothing is left to add."""
        gW = into[-1]
        if gW is None:
            return self.array_backward(indexes, grad_outputs, inputs,
                                       outputs)
        ids, rows = self._grad().rows(inputs[0], grad_outputs[0])
        add_rows(gW, ids, rows)
        return (None,) * len(indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """Where the backward pass alone holds W's gradient so far (an
        embedding used at every step of a sequence), add this gradient's
        few rows to it in place instead of a whole new matrix; the first
        gradient is handed over to the pass for that."""
        gW_before = grad_inputs[-1]
        w_node = self.inputs[1]
        if gW_before is not None and accumulation.private(gW_before, w_node):
            x, = self.get_retained_inputs()
            ids, rows = self._grad().rows(x.array, grad_outputs[0].array)
            add_rows(gW_before.array, ids, rows)
            return grad_inputs
        gxs = super().backward_accumulate(target_input_indexes,
                                          grad_outputs, grad_inputs)
        accumulation.hand_over(gxs[-1], w_node)
        return gxs


class EmbedIDGrad(function_node.FunctionNode):
    """gW: the rows of gy added into the rows of W that x selected."""

    def __init__(self, w_shape, ignore_label=None):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def rows(self, x, gy):
        """The ids of x and their gradient rows of gy (ignored ids
        dropped)."""
        ids = x.ravel()
        rows = gy.reshape(ids.size, self.w_shape[1])
        if self.ignore_label is not None:
            kept = ids != self.ignore_label
            ids, rows = ids[kept], rows[kept]
        return ids, rows

    def _zeros_and_rows(self, inputs):
        """gW of zeros, and the ids with their gradient rows."""
        x, gy = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(gy)
        gW = xp.zeros(self.w_shape, dtype=gy.dtype)
        return (gW,) + self.rows(x, gy)

    def forward(self, inputs):
        gW, ids, rows = self._zeros_and_rows(inputs)
        return add_rows(gW, ids, rows),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return None, embed_id(x, grad_outputs[0], self.ignore_label)


def add_rows(gW, ids, rows):
    """``gW[ids[i]] += rows[i]`` for every i, in place (ids may repeat);
    returns gW."""
    if not ids.size:
        return gW
    if backend.get_array_module(gW) is not numpy:
        return _scatter.scatter_add(gW, ids, rows)
    # One segment sum per distinct id over the sorted rows: several times
    # faster than numpy.add.at on rows.
    order = numpy.argsort(ids, kind='stable')
    ids = ids[order]
    starts = numpy.flatnonzero(numpy.r_[True, ids[1:] != ids[:-1]])
    gW[ids[starts]] += numpy.add.reduceat(rows[order], starts, axis=0)
    return gW


def embed_id(x, W, ignore_label=None):
    """Embedding: ``y[..., :] = W[x[...], :]``.

    Args:
        x: Variable or array of integer ids in ``[0, W.shape[0])``, any
            shape.
        W: Variable or array ``(n_vocab, n_units)``, float.
        ignore_label: An id whose rows of y are zero (and receive no
            gradient), or None.

    Returns:
        Variable ``x.shape + (n_units,)``.
    """
    if ignore_label is not None and not isinstance(
            ignore_label, (int, numpy.integer)):
        raise TypeError(f'embed_id: ignore_label must be an int or None; '
                        f'got {ignore_label!r}')
    y, = EmbedIDFunction(ignore_label).apply((x, W))
    return y
