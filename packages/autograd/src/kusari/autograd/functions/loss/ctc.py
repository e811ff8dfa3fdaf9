"""Connectionist temporal classification (CTC) loss."""
import collections.abc

import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import function_node
from kusari.autograd.functions.array import _scatter
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.loss import _common
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import as_array

_NAME = 'connectionist_temporal_classification'


def _log_add(*terms):
    result = terms[0]
    xp = backend.get_array_module(result)
    for term in terms[1:]:
        result = xp.logaddexp(result, term)
    return result


def _shift(a, by, fill):
    """``a`` moved ``by`` places right along its last axis (left if
    negative), the vacated places set to ``fill``."""
    xp = backend.get_array_module(a)
    out = xp.full_like(a, fill)
    if by > 0:
        out[..., by:] = a[..., :-by]
    else:
        out[..., :by] = a[..., -by:]
    return out


class ConnectionistTemporalClassification(function_node.FunctionNode):
    """-log p(t | x): the sum over all alignments of the labels (blanks
    between and around them, repeats merged), by the forward-backward
    algorithm in log space. The inputs are the label array, the lengths,
    then one ``(B, V)`` score array per time step."""

    def __init__(self, blank_symbol, reduce):
        self.blank_symbol = blank_symbol
        self.reduce = reduce

    @property
    def label(self):
        return _NAME

    def check_type_forward(self, in_types):
        names = ('t', 'input_length', 'label_length') + tuple(
            f'x[{i}]' for i in range(len(in_types) - 3))
        type_check.argname(in_types, names)
        t_type, input_type, label_type = in_types[:3]
        x_type = in_types[3]
        type_check.expect(
            t_type.dtype.kind == 'i', t_type.ndim == 2,
            input_type.dtype.kind == 'i', input_type.ndim == 1,
            label_type.dtype.kind == 'i', label_type.ndim == 1,
            x_type.dtype.kind == 'f', x_type.ndim == 2)
        type_check.expect(t_type.shape[0] == x_type.shape[0],
                          input_type.shape[0] == x_type.shape[0],
                          label_type.shape[0] == x_type.shape[0])
        for other in in_types[4:]:
            type_check.expect(other.dtype == x_type.dtype,
                              other.shape == x_type.shape)

    def forward(self, inputs):
        t, input_length, label_length = inputs[:3]
        xs = inputs[3:]
        xp = backend.get_array_module(t)
        dtype = xs[0].dtype
        # The padding past each row's labels (any int, unchecked) is read
        # as blanks.
        t = xp.where(xp.arange(t.shape[1]) < label_length[:, None], t,
                     self.blank_symbol)
        self._check_values(xp, t, input_length, label_length, xs)
        log_y = xp.stack(xs).astype(_common.accumulation_dtype(dtype))
        log_y -= log_y.max(axis=2, keepdims=True)
        log_y -= xp.log(xp.exp(log_y).sum(axis=2, keepdims=True))
        n_time, n_batch, n_vocab = log_y.shape
        extended, ext_length = self._extended_labels(xp, t, label_length)
        emit = xp.take_along_axis(
            log_y, xp.broadcast_to(extended, (n_time,) + extended.shape),
            axis=2)
        positions = xp.arange(extended.shape[1])
        valid = positions < ext_length[:, None]
        emit = xp.where(valid, emit, -xp.inf)
        # A label can be skipped to from two places back unless it is a
        # blank or repeats the label there.
        skip = (extended != self.blank_symbol) & (
            extended != _shift(extended, 2, self.blank_symbol))
        alpha = self._alpha(xp, emit, skip)
        beta = self._beta(xp, emit, skip, input_length, ext_length)
        last = input_length - 1
        batch = xp.arange(n_batch)
        final = alpha[last, batch]
        log_likelihood = _log_add(
            final[batch, ext_length - 1],
            xp.where(ext_length > 1, final[batch, ext_length - 2], -xp.inf))
        # Positions past a row's labels have emit = -inf: posterior 0.
        finite = xp.isfinite(emit)
        log_posterior = xp.where(finite, alpha + beta - xp.where(
            finite, emit, 0), -xp.inf)
        posterior = xp.exp(log_posterior - log_likelihood[:, None])
        occupancy = xp.zeros_like(log_y)
        index = (xp.arange(n_time)[:, None, None] * n_batch
                 + batch[:, None]) * n_vocab + extended
        _scatter.scatter_add(occupancy.reshape(-1),
                             xp.broadcast_to(index, posterior.shape).ravel(),
                             posterior.ravel())
        grad = xp.exp(log_y, out=log_y)
        grad -= occupancy
        running = xp.arange(n_time)[:, None] < input_length
        grad *= running[:, :, None]
        loss = -log_likelihood
        if self.reduce == 'mean':
            grad *= grad.dtype.type(1 / n_batch)
            self._grad = grad.astype(dtype, copy=False)
            return force_array(loss.mean(), dtype),
        self._grad = grad.astype(dtype, copy=False)
        return loss.astype(dtype),

    def _check_values(self, xp, t, input_length, label_length, xs):
        if not (xp is numpy or configuration.config.debug):
            return
        n_time, n_vocab = len(xs), xs[0].shape[1]
        if not 0 <= self.blank_symbol < n_vocab:
            raise ValueError(f'{_NAME}: blank_symbol must be in [0, '
                             f'{n_vocab}), got {self.blank_symbol}')
        if input_length.size and not (
                bool((input_length >= 1).all())
                and bool((input_length <= n_time).all())):
            raise ValueError(f'{_NAME}: input_length must be in [1, '
                             f'{n_time}] (the length of x)')
        if label_length.size and not (
                bool((label_length >= 0).all())
                and bool((label_length <= t.shape[1]).all())):
            raise ValueError(f'{_NAME}: label_length must be in [0, '
                             f'{t.shape[1]}] (t.shape[1])')
        _common.check_labels(_NAME, t, n_vocab, None)

    def _extended_labels(self, xp, t, label_length):
        """The labels with a blank before, between and after them, and
        the length of each row of that."""
        n_batch, n_label = t.shape
        extended = xp.full((n_batch, 2 * n_label + 1), self.blank_symbol,
                           t.dtype)
        extended[:, 1::2] = t
        return extended, 2 * label_length + 1

    def _alpha(self, xp, emit, skip):
        """log of the probability of the prefixes ending at each position
        at each time."""
        alpha = xp.full_like(emit, -xp.inf)
        alpha[0, :, :2] = emit[0, :, :2]
        for time in range(1, len(emit)):
            previous = alpha[time - 1]
            alpha[time] = _log_add(
                previous, _shift(previous, 1, -xp.inf),
                xp.where(skip, _shift(previous, 2, -xp.inf), -xp.inf)
            ) + emit[time]
        return alpha

    def _beta(self, xp, emit, skip, input_length, ext_length):
        """log of the probability of the suffixes starting at each
        position at each time, from each sequence's own last step."""
        n_time, n_batch, n_ext = emit.shape
        beta = xp.empty_like(emit)  # every step is written below
        ends = xp.arange(n_ext) >= (ext_length - 2)[:, None]
        # The skip into position s + 2 is allowed where skip[s + 2] holds.
        skip_from = _shift(skip, -2, False)
        for time in range(n_time - 1, -1, -1):
            start = xp.where(ends, emit[time], -xp.inf)
            if time + 1 < n_time:
                following = beta[time + 1]
                step = _log_add(
                    following, _shift(following, -1, -xp.inf),
                    xp.where(skip_from, _shift(following, -2, -xp.inf),
                             -xp.inf)) + emit[time]
            else:
                step = start
            state = xp.where((time == input_length - 1)[:, None], start,
                             step)
            beta[time] = xp.where((time < input_length)[:, None], state,
                                  -xp.inf)
        return beta

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        grad = self._grad
        n_batch = grad.shape[1]
        if self.reduce == 'mean':
            gy = broadcast_to(gy, (n_batch,))
        gy = broadcast_to(expand_dims(gy, 1), grad.shape[1:])
        return tuple([None if i < 3 else gy * grad[i - 3]
                      for i in indexes])


def _lengths(xp, value, default, batch, name):
    if value is None:
        return xp.full((batch,), default, numpy.int32)
    value = as_array(value)
    if getattr(value, 'ndim', None) != 1 or value.dtype.kind != 'i' \
            or len(value) != batch:
        raise ValueError(f'{_NAME}: {name} must be a 1-D int array of '
                         f'length {batch} (the batch size)')
    return value


@type_check.checks_inputs
def connectionist_temporal_classification(
        x, t, blank_symbol, input_length=None, label_length=None,
        reduce='mean'):
    """CTC loss (Graves et al., 2006): the negative log-likelihood of the
    label sequences ``t`` summed over all their alignments to the inputs.

    An alignment emits, at each time step, a label or the blank; merging
    repeats and removing blanks must give the label sequence. The softmax
    of ``x`` over the vocabulary gives the emission probabilities; the sum
    runs in log space (forward-backward algorithm).

    Args:
        x: list of ``T`` Variables or arrays ``(B, V)``, float:
            unnormalized scores of each time step.
        t: int array ``(B, L)``: the label sequences (padded).
        blank_symbol (int): the id of the blank, in ``[0, V)``.
        input_length: None (all ``T``) or an int array ``(B,)`` of the
            lengths of the inputs.
        label_length: None (all ``L``) or an int array ``(B,)`` of the
            lengths of the label sequences.
        reduce (str): ``'mean'`` (over the batch) or ``'no'`` (``(B,)``).

    Returns:
        Variable of the dtype of ``x``. Its gradient is not differentiable
        again (as in Chainer).
    """
    _common.check_option(_NAME, 'reduce', reduce, ('mean', 'no'))
    if not isinstance(x, collections.abc.Sequence):
        # As in Chainer: one Variable or array (T, B, V) is not taken.
        raise TypeError(f'{_NAME}: x must be a list or tuple of Variables '
                        f'or arrays, one per time step; got '
                        f'{type(x).__name__}')
    xs = tuple(x)
    if not xs:
        raise ValueError(f'{_NAME}: x must hold at least one time step')
    t = as_array(t)
    xp = backend.get_array_module(t)
    batch = t.shape[0] if t.ndim else 0
    input_length = _lengths(xp, input_length, len(xs), batch,
                            'input_length')
    label_length = _lengths(xp, label_length, t.shape[1] if t.ndim == 2
                            else 0, batch, 'label_length')
    node = ConnectionistTemporalClassification(int(blank_symbol), reduce)
    return node.apply((t, input_length, label_length) + xs)[0]
