"""Negative sampling loss (word2vec's skip-gram objective)."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation.softplus import softplus
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.cast import cast
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.connection.embed_id import embed_id
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array

IGNORE_LABEL = -1


def _check(in_types):
    x_type, t_type, w_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 2,
                      t_type.dtype.kind == 'i', t_type.ndim == 1,
                      w_type.dtype == x_type.dtype, w_type.ndim == 2)
    type_check.expect(x_type.shape[0] == t_type.shape[0],
                      x_type.shape[1] == w_type.shape[1])


class NegativeSamples(function_node.FunctionNode):
    """The word ids of each row, ``t`` then the negative samples: a
    ``(N, sample_size + 1)`` block drawn by ``sampler`` with ``t`` in its
    first column; and the rows whose ``t`` is not ignored, 1 or 0 of
    ``dtype``. A node, so that a static graph's replay draws anew and
    reads that call's ``t``; nothing takes a gradient."""

    def __init__(self, sampler, sample_size, n_vocab, dtype):
        self.sampler = sampler
        self.sample_size = sample_size
        self.n_vocab = n_vocab
        self.dtype = dtype

    def forward(self, inputs):
        t, = inputs
        xp = backend.get_array_module(t)
        # As Chainer, draw a full (N, sample_size + 1) block and put the
        # true words in its first column: the same sampler gives the same
        # samples.
        shape = (len(t), self.sample_size + 1)
        samples = xp.asarray(self.sampler(shape))
        if samples.shape != shape or samples.dtype.kind not in 'iu':
            raise ValueError(
                f'negative_sampling: sampler must return ints of shape '
                f'{shape}, got {samples.dtype} of shape {samples.shape}')
        samples = samples.astype(t.dtype)
        _common.check_labels('negative_sampling (sampler output)',
                             samples[:, 1:], self.n_vocab, None)
        samples[:, 0] = t
        return samples, (t != IGNORE_LABEL).astype(self.dtype)

    def backward(self, indexes, grad_outputs):
        return (None,) * len(indexes)


def negative_sampling(x, t, W, sampler, sample_size, reduce='sum',
                      **kwargs):
    """Negative sampling loss of contexts ``x`` for the words ``t``.

    For each row, with :math:`w_t` the row of ``W`` of the true word and
    :math:`w_s` those of ``sample_size`` words drawn by ``sampler``:
    :math:`l = -\\log \\sigma(x^\\top w_t) - \\sum_s \\log \\sigma(-x^\\top
    w_s)`. Rows whose ``t`` is -1 have no loss.

    Args:
        x: Variable or array ``(N, D)``, float.
        t: array ``(N,)`` of word ids in ``[0, V)``, or -1 (ignored).
        W: Variable or array ``(V, D)`` of the dtype of ``x``.
        sampler: callable taking a shape ``(N, sample_size + 1)`` and
            returning an int array of that shape of word ids (the first
            column is replaced by ``t``).
        sample_size (int): the number of negative samples per row.
        reduce (str): ``'sum'`` or ``'no'`` (one value per row).
        return_samples (bool): keyword only; also return the ``(N,
            sample_size + 1)`` ids used, ``t`` in the first column.

    Returns:
        Variable: a scalar, or ``(N,)``; with ``return_samples``, the pair
        (loss, samples).
    """
    return_samples = kwargs.pop('return_samples', False)
    if kwargs:
        raise TypeError(f'negative_sampling: unexpected keyword arguments '
                        f'{", ".join(sorted(kwargs))}')
    _common.check_option('negative_sampling', 'reduce', reduce,
                         ('sum', 'no'))
    _common.check_inputs('negative_sampling', ('x', 't', 'W'), (x, t, W),
                         _check)
    n_vocab = W.shape[0]
    _common.check_labels('negative_sampling', t, n_vocab, IGNORE_LABEL)
    dtype = x.dtype
    # float16 products summed, then softplus and summed again, lose a
    # digit or two: compute the scores and the loss in float32 (the rows
    # drawn, not all of W, are cast).
    work_dtype = numpy.float32 if dtype == numpy.float16 else dtype
    samples, kept = NegativeSamples(sampler, sample_size, n_vocab,
                                    work_dtype).apply((as_array(t),))
    rows = embed_id(samples, W, ignore_label=IGNORE_LABEL)
    if dtype != work_dtype:
        rows, x = cast(rows, work_dtype), cast(x, work_dtype)
    scores = sum_(rows * broadcast_to(expand_dims(x, 1), rows.shape), axis=2)
    # Positive column: -log sigmoid(s) = softplus(-s); negatives: softplus(s).
    signs = samples.xp.ones(samples.shape[1], work_dtype)
    signs[0] = -1
    loss = sum_(softplus(scores * signs), axis=1) * kept
    if reduce == 'sum':
        loss = sum_(loss)
    if loss.dtype != dtype:
        loss = cast(loss, dtype)
    return (loss, samples.array) if return_samples else loss
