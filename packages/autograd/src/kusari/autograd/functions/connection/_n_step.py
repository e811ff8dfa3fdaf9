"""The layer, direction and time-step loops shared by the n_step RNNs.

A stacked (bi)directional RNN differs between the RNN, GRU and LSTM only
in how a layer's weights are arranged and in the update of one time step:
a :class:`Cell` says that, and :func:`n_step_rnn_base` runs the loops.

The input of a layer enters through ONE matrix product per direction: the
sequence is concatenated along the batch axis (time-major) and projected.
The time loop of one direction of one layer is then ONE function node,
:class:`Sweep`, whose forward and backward run on arrays: per step only
the recurrent product and the cell's fused elementwise update, written into
arrays allocated once per sweep; the gradient of the recurrent weight is
one product over all steps. Where the backward pass records a graph
(double backpropagation), the gradients come from differentiating the
same loop written with differentiable functions, so every order of
gradient follows.
"""
import abc
import itertools

import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import function_node
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.separate import separate
from kusari.autograd.functions.array.split_axis import split_axis
from kusari.autograd.functions.array.stack import stack
from kusari.autograd.functions.connection.linear import linear
from kusari.autograd.functions.noise._arguments import reject_removed
from kusari.autograd.functions.noise.dropout import dropout
from kusari.autograd.variable import Variable


class Cell(abc.ABC):
    """The weights layout and the time step of one kind of RNN.

    A layer has ``2 * n_gates`` weight matrices and as many bias vectors:
    the first ``n_gates`` act on the layer's input, the others on the
    hidden state. Its time step is written twice: with differentiable
    functions (:meth:`step`) and on arrays, in place
    (:meth:`forward_step`, :meth:`backward_step`), for :class:`Sweep`.
    """

    n_gates = 1
    has_cell = False
    hidden_bias = False  # whether hidden_projection gives a bias

    @abc.abstractmethod
    def input_projection(self, w, b):
        """``(W, b)`` projecting a layer's input onto what :meth:`step`
        takes as ``xw``, from the layer's weights ``w`` and biases ``b``."""

    @abc.abstractmethod
    def hidden_projection(self, w, b):
        """``(W, b)`` (b None unless :attr:`hidden_bias`) that :meth:`step`
        applies to the hidden state."""

    @abc.abstractmethod
    def step(self, xw, h, c, W, b):
        """``(h, c)`` after one time step, as Variables, from the projected
        input ``xw`` (B_t rows), the previous hidden state ``h`` (B_t
        rows), the cell state ``c`` (None without one; it may have more
        rows than ``h``, which pass unchanged) and the hidden projection
        ``W``, ``b``."""

    def tape(self, xp, rows, units, dtype):
        """The arrays :meth:`forward_step` records into for
        :meth:`backward_step`, of ``rows`` rows (one per row of the
        sweep's xw); a dict."""
        return {}

    @abc.abstractmethod
    def forward_step(self, tape, rows, xw, hw, h, c):
        """One time step on arrays: overwrite the live rows ``h`` (and
        ``c``) of the state with their new values, from the projected
        input ``xw`` and hidden state ``hw`` (``h W^T + b``, a fresh
        array the step may overwrite); record what the backward needs in
        ``tape[...][rows]``."""

    @abc.abstractmethod
    def backward_step(self, tape, rows, gh, gc, g_hw):
        """The backward of one :meth:`forward_step`: from the gradients
        ``gh`` (and ``gc``) of the step's new state, write the gradient of
        ``hw`` into ``g_hw`` and overwrite ``gc`` with that of the
        previous cell state; return the part of the previous hidden
        state's gradient that does not pass through ``hw`` (None where
        there is none). ``tape['h'][rows]`` and ``tape['h_prev'][rows]``
        hold the step's new and previous hidden states."""

    def input_grad(self, tape, g_hw):
        """The gradient of the sweep's xw from that of every step's hw
        (the same where xw and hw are added before any other use); it may
        overwrite ``g_hw``."""
        return g_hw


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
            xw = linear(x, *cell.input_projection(ws[index], bs[index]))
            W, b = cell.hidden_projection(ws[index], bs[index])
            states = (hxs[index],) + ((cxs[index],) if cell.has_cell
                                      else ()) + (W,) + \
                ((b,) if cell.hidden_bias else ())
            hs, h, *c = Sweep(cell, batches, direction == 1).apply(
                (xw,) + states)
            hy.append(h)
            cy.extend(c)
            outputs.append(hs)
        layer_input = _joined(outputs, axis=1)
    ys = split_axis(layer_input, list(itertools.accumulate(batches[:-1])),
                    axis=0)
    return stack(hy), stack(cy) if cell.has_cell else None, ys


def _joined(xs, axis):
    return xs[0] if len(xs) == 1 else concat(xs, axis=axis)


class Sweep(function_node.FunctionNode):
    """One direction of one layer over the time steps:
    ``(xw, h0, [c0,] W, [b]) -> (hs, h, [c])``.

    ``xw`` holds the projected input of every step, time-major (the B_t
    rows of step t follow those of step t - 1); ``hs`` holds the hidden
    states in the same rows; ``h`` and ``c`` are the final states, (B, N).
    Only the rows of a sequence that runs at a step go through it: the
    state arrays keep every row, those of sequences ended (going forward)
    or not yet begun (in reverse) unchanged. float16 runs in float32.
    """

    def __init__(self, cell, batches, reverse):
        self.cell = cell
        starts = [0, *itertools.accumulate(batches)]
        self.rows = [slice(start, start + batch)
                     for start, batch in zip(starts, batches)]
        self.batches = batches
        self.order = range(len(batches) - 1, -1, -1) if reverse else \
            range(len(batches))

    @property
    def label(self):
        return f'{type(self.cell).__name__}Sweep'

    def _split(self, values):
        """``(xw, h0, c0, W, b)`` from the inputs, None where absent."""
        cell = self.cell
        xw, h0, *rest = values
        c0 = rest.pop(0) if cell.has_cell else None
        W = rest.pop(0)
        b = rest.pop(0) if cell.hidden_bias else None
        return xw, h0, c0, W, b

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        dtype = inputs[0].dtype
        work = _work_dtype(dtype)
        xw, h0, c0, W, b = [None if x is None else x.astype(work, copy=False)
                            for x in self._split(inputs)]
        cell = self.cell
        units = h0.shape[1]
        h = h0.copy()
        c = None if c0 is None else c0.copy()
        tape = cell.tape(xp, len(xw), units, work)
        tape['h'] = xp.empty((len(xw), units), work)
        tape['h_prev'] = xp.empty_like(tape['h'])
        # (BLAS multiplies by a contiguous W^T faster than by W's view.)
        WT = xp.ascontiguousarray(W.T)
        for t in self.order:
            rows, batch = self.rows[t], self.batches[t]
            h_live = h[:batch]
            tape['h_prev'][rows] = h_live
            hw = xp.matmul(h_live, WT)
            if b is not None:
                hw += b
            cell.forward_step(tape, rows, xw[rows], hw, h_live,
                              None if c is None else c[:batch])
            tape['h'][rows] = h_live
        self.tape = tape
        outputs = (tape['h'], h) + (() if c is None else (c,))
        return tuple([y.astype(dtype, copy=False) for y in outputs])

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        if configuration.config.enable_backprop:
            grads = self._composite_grads(inputs, grad_outputs)
        else:
            grads = [None if g is None else Variable(g, requires_grad=False)
                     for g in self._grads(inputs, grad_outputs)]
        return tuple([grads[i] for i in indexes])

    def _grads(self, inputs, grad_outputs):
        """The gradients of every input, on arrays."""
        cell, tape = self.cell, self.tape
        xw, h0, c0, W, b = self._split(inputs)
        xp = backend.get_array_module(h0.array)
        work = tape['h'].dtype
        g_hs, *g_states = grad_outputs
        g_hs = None if g_hs is None else g_hs.array.astype(work, copy=False)
        # The gradients of the state, overwritten step by step.
        gh, gc = [xp.zeros(h0.shape, work) if g is None
                  else g.array.astype(work) for g in g_states] + \
            [None] * (2 - len(g_states))
        W = W.array.astype(work, copy=False)
        g_hw = xp.empty((len(tape['h']), W.shape[0]), work)
        for t in reversed(self.order):
            rows, batch = self.rows[t], self.batches[t]
            gh_live = gh[:batch]
            if g_hs is not None:
                gh_live += g_hs[rows]
            direct = cell.backward_step(
                tape, rows, gh_live, None if gc is None else gc[:batch],
                g_hw[rows])
            g_prev = xp.matmul(g_hw[rows], W)
            if direct is not None:
                g_prev += direct
            gh_live[...] = g_prev
        gW = xp.matmul(g_hw.T, tape['h_prev'])
        gb = None if b is None else g_hw.sum(axis=0)
        grads = [cell.input_grad(tape, g_hw), gh, gc, gW, gb]
        grads = [g for g, x in zip(grads, (xw, h0, c0, W, b))
                 if x is not None]
        return [g.astype(x.dtype, copy=False) for g, x in zip(grads, inputs)]

    def _composite_grads(self, inputs, grad_outputs):
        """The gradients of every input as Variables on the graph, through
        the loop written with differentiable functions."""
        outputs = _composite_sweep(self.cell, self.rows, self.batches,
                                   self.order, *self._split(inputs))
        pairs = [(y, g) for y, g in zip(outputs, grad_outputs)
                 if g is not None]
        return function_node.grad(
            [y for y, _ in pairs], list(inputs), [g for _, g in pairs],
            enable_double_backprop=True)


def _work_dtype(dtype):
    """The dtype a sweep computes in: float16 has no BLAS, and its sums
    over many steps need the precision."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def _composite_sweep(cell, rows, batches, order, xw, h0, c0, W, b):
    """:class:`Sweep`'s outputs, from differentiable functions."""
    xws = split_axis(xw, [r.stop for r in rows[:-1]], axis=0)
    h, c = h0, c0
    hs = [None] * len(xws)
    for t in order:
        batch = batches[t]
        if batch < len(h):
            h, rest = split_axis(h, [batch], axis=0)
            h_next, c = cell.step(xws[t], h, c, W, b)
            hs[t] = h_next
            h = concat((h_next, rest), axis=0)
        else:
            h, c = cell.step(xws[t], h, c, W, b)
            hs[t] = h
    return (_joined(hs, axis=0), h) + (() if c is None else (c,))


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
