"""The layer, direction and time-step loops shared by the n_step RNNs.

A stacked (bi)directional RNN differs between the RNN, GRU and LSTM only
in how a layer's weights are arranged and in the update of one time step:
a :class:`Cell` says that, and :func:`n_step_rnn_base` runs the loops,
built from differentiable functions so that every order of gradient
follows.

The input of a layer enters through ONE matrix product per direction: the
sequence is concatenated along the batch axis, projected, and split back
into time steps; only the recurrent product remains in the time loop.
"""
import abc
import itertools

from kusari.array import configuration
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.separate import separate
from kusari.autograd.functions.array.split_axis import split_axis
from kusari.autograd.functions.array.stack import stack
from kusari.autograd.functions.connection.linear import linear
from kusari.autograd.functions.noise._arguments import reject_removed
from kusari.autograd.functions.noise.dropout import dropout


class Cell(abc.ABC):
    """The weights layout and the time step of one kind of RNN.

    A layer has ``2 * n_gates`` weight matrices and as many bias vectors:
    the first ``n_gates`` act on the layer's input, the others on the
    hidden state.
    """

    n_gates = 1
    has_cell = False

    @abc.abstractmethod
    def input_projection(self, w, b):
        """``(W, b)`` projecting a layer's input onto what :meth:`step`
        takes as ``xw``, from the layer's weights ``w`` and biases ``b``."""

    @abc.abstractmethod
    def hidden_projection(self, w, b):
        """``(W, b)`` (b may be None) that :meth:`step` applies to the
        hidden state."""

    @abc.abstractmethod
    def step(self, xw, h, c, W, b):
        """``(h, c)`` after one time step, from the projected input ``xw``
        (B_t rows), the previous hidden state ``h`` (B_t rows), the cell
        state ``c`` (None without one; it may have more rows than ``h``,
        which pass unchanged) and the hidden projection ``W``, ``b``."""


def n_step_rnn_base(cell, func_name, n_layers, dropout_ratio, hx, cx, ws,
                    bs, xs, use_bi_direction, kwargs):
    """Run the stacked RNN described by ``cell``; see n_step_lstm.

    Returns:
        tuple: ``(hy, cy, ys)``; cy is None when the cell has no cell
        state.
    """
    if 'use_cudnn' in kwargs:
        raise ValueError(
            f'{func_name}: the use_cudnn argument is not supported anymore; '
            f"use chainer.using_config('use_cudnn', ...) instead")
    reject_removed(func_name, kwargs)
    n_directions = 2 if use_bi_direction else 1
    batches = _check_arguments(cell, func_name, n_layers, dropout_ratio, hx,
                               cx, ws, bs, xs, n_directions)
    hxs = separate(hx)
    cxs = separate(cx) if cell.has_cell else (None,) * len(hxs)
    offsets = list(itertools.accumulate(batches[:-1]))
    drop = dropout_ratio > 0 and configuration.config.train
    layer_input = _joined(xs, axis=0)
    hy, cy = [], []
    for layer in range(n_layers):
        outputs = []
        for direction in range(n_directions):
            index = layer * n_directions + direction
            x = layer_input
            if layer and drop:
                x = dropout(x, dropout_ratio)
            xws = split_axis(linear(x, *cell.input_projection(
                ws[index], bs[index])), offsets, axis=0)
            h, c, hs = _sweep(cell, xws, batches, hxs[index], cxs[index],
                              cell.hidden_projection(ws[index], bs[index]),
                              reverse=direction == 1)
            hy.append(h)
            cy.append(c)
            outputs.append(hs)
        if n_directions == 1 and layer == n_layers - 1:
            ys = tuple(outputs[0])
            break
        columns = [_joined(hs, axis=0) for hs in outputs]
        layer_input = _joined(columns, axis=1)
    else:
        ys = split_axis(layer_input, offsets, axis=0)
    return stack(hy), stack(cy) if cell.has_cell else None, ys


def _joined(xs, axis):
    return xs[0] if len(xs) == 1 else concat(xs, axis=axis)


def _sweep(cell, xws, batches, h0, c0, hidden, reverse):
    """One direction of one layer over the time steps: the final hidden
    and cell states, and the hidden states in time order.

    Only the rows of h whose sequence runs at a step go through it: going
    forward, the rows of ended sequences are set aside as final; going in
    reverse, the rows of sequences not begun are taken from h0 when they
    begin. The cell state keeps all rows, as the step passes the extra
    ones unchanged.
    """
    h, c = h0, c0
    hs = [None] * len(xws)
    ended = []
    for t in (reversed(range(len(xws))) if reverse else range(len(xws))):
        live, batch = len(h), batches[t]
        if batch < live:
            h, rest = split_axis(h, [batch], axis=0)
            if not reverse:
                ended.append(rest)
        elif batch > live:
            h = concat((h, h0[live:batch]), axis=0)
        h, c = cell.step(xws[t], h, c, *hidden)
        hs[t] = h
    if ended:
        h = concat([h] + ended[::-1], axis=0)
    return h, c, hs


def _check_arguments(cell, func_name, n_layers, dropout_ratio, hx, cx, ws,
                     bs, xs, n_directions):
    """Validate the arguments before anything runs; return the batch size
    of each time step."""
    def fail(argument, expected, got):
        raise ValueError(f'{func_name}: {argument} must be {expected}; '
                         f'got {got}')

    if not isinstance(n_layers, int) or isinstance(n_layers, bool) or \
            n_layers < 1:
        fail('n_layers', 'a positive int', repr(n_layers))
    if not 0 <= dropout_ratio < 1:
        fail('dropout_ratio', 'in [0, 1)', repr(dropout_ratio))
    if not isinstance(xs, (list, tuple)) or not xs:
        fail('xs', 'a non-empty list of Variables, one per time step',
             repr(type(xs).__name__))
    states = {'hx': hx, 'cx': cx} if cell.has_cell else {'hx': hx}
    for name, state in states.items():
        if not hasattr(state, 'dtype'):
            fail(name, 'a Variable or an array', type(state).__name__)
    dtype = hx.dtype
    if dtype.kind != 'f':
        fail('hx', 'of a float dtype', dtype)
    in_size = xs[0].shape[1] if xs[0].ndim == 2 else None
    batches = []
    for t, x in enumerate(xs):
        if x.ndim != 2 or x.shape[1] != in_size or x.dtype != dtype:
            fail(f'xs[{t}]', f'a (B_t, {in_size}) array of hx\'s dtype '
                 f'{dtype}', f'shape {x.shape} and dtype {x.dtype}')
        if batches and len(x) > batches[-1]:
            fail('xs', 'sorted by decreasing batch size (sequences sorted '
                 'by decreasing length, then transposed)',
                 f'batch sizes {[len(x) for x in xs]}')
        batches.append(len(x))
    n_states = n_layers * n_directions
    if hx.ndim != 3 or hx.shape[:2] != (n_states, len(xs[0])):
        fail('hx', f'of shape ({n_states}, B, N) with B = len(xs[0]) = '
             f'{len(xs[0])}', f'shape {hx.shape}')
    units = hx.shape[2]
    if cell.has_cell and (cx.shape != hx.shape or cx.dtype != dtype):
        fail('cx', f'of hx\'s shape {hx.shape} and dtype {dtype}',
             f'shape {cx.shape} and dtype {cx.dtype}')
    n_weights = 2 * cell.n_gates
    for name, params in (('ws', ws), ('bs', bs)):
        if len(params) != n_states:
            fail(name, f'a list of {n_states} lists (n_layers x '
                 f'directions)', f'{len(params)} lists')
        for index, layer_params in enumerate(params):
            if len(layer_params) != n_weights:
                fail(f'{name}[{index}]', f'a list of {n_weights} arrays',
                     f'{len(layer_params)}')
    for index in range(n_states):
        layer_in = in_size if index < n_directions else \
            units * n_directions
        for j in range(n_weights):
            w, b = ws[index][j], bs[index][j]
            shape = (units, layer_in if j < cell.n_gates else units)
            if w.shape != shape or w.dtype != dtype:
                fail(f'ws[{index}][{j}]', f'of shape {shape} and dtype '
                     f'{dtype}', f'shape {w.shape} and dtype {w.dtype}')
            if b.shape != (units,) or b.dtype != dtype:
                fail(f'bs[{index}][{j}]', f'of shape ({units},) and dtype '
                     f'{dtype}', f'shape {b.shape} and dtype {b.dtype}')
    return batches
