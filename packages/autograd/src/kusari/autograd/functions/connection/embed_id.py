"""Embedding lookup: rows of a matrix selected by integer ids."""
import numpy

from kusari.array import backend
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
            x_type.dtype.kind in 'iu', w_type.dtype.kind == 'f',
            w_type.ndim == 2)

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

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        grad = EmbedIDGrad(self._w_shape, self.ignore_label)
        return None, grad.apply((x, grad_outputs[0]))[0]


class EmbedIDGrad(function_node.FunctionNode):
    """gW: the rows of gy added into the rows of W that x selected."""

    def __init__(self, w_shape, ignore_label=None):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def _zeros_and_rows(self, inputs):
        """gW of zeros, and the ids with their gradient rows (ignored ids
        dropped)."""
        x, gy = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(gy)
        gW = xp.zeros(self.w_shape, dtype=gy.dtype)
        ids = x.ravel()
        rows = gy.reshape(ids.size, self.w_shape[1])
        if self.ignore_label is not None:
            kept = ids != self.ignore_label
            ids, rows = ids[kept], rows[kept]
        return gW, ids, rows

    def forward_cpu(self, inputs):
        gW, ids, rows = self._zeros_and_rows(inputs)
        if ids.size:
            # One segment sum per distinct id over the sorted rows: several
            # times faster than numpy.add.at on rows.
            order = numpy.argsort(ids, kind='stable')
            ids = ids[order]
            starts = numpy.flatnonzero(numpy.r_[True, ids[1:] != ids[:-1]])
            gW[ids[starts]] = numpy.add.reduceat(rows[order], starts, axis=0)
        return gW,

    def forward_gpu(self, inputs):
        gW, ids, rows = self._zeros_and_rows(inputs)
        return _scatter.scatter_add(gW, ids, rows),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return None, embed_id(x, grad_outputs[0], self.ignore_label)


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
