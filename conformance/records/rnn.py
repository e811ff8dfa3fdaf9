"""Records of the stacked RNNs: n_step_{rnn,gru,lstm} and their
bidirectional forms.

The functions take nested lists of arrays; the records draw few arrays
(hx, cx, all weights and biases as one vector, all time steps
concatenated) and cut them apart, as drawing is what costs most here.
The reference runs each sequence on its own, a vector at a time, which
shares nothing with the batched, time-major code under test. Sizes stay
tiny: every weight is perturbed by the finite differences.
"""
import numpy
from hypothesis import strategies as st

from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import shapes
from kusari.autograd import functions as F


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _rnn_step(activation):
    def step(x, h, c, w, b):
        y = w[0] @ x + w[1] @ h + b[0] + b[1]
        return (numpy.tanh(y) if activation == 'tanh'
                else numpy.maximum(y, 0)), c
    return step


def _gru_step(x, h, c, w, b):
    r = _sigmoid(w[0] @ x + w[3] @ h + b[0] + b[3])
    z = _sigmoid(w[1] @ x + w[4] @ h + b[1] + b[4])
    candidate = numpy.tanh(w[2] @ x + b[2] + r * (w[5] @ h + b[5]))
    return (1 - z) * candidate + z * h, c


def _lstm_step(x, h, c, w, b):
    def gate(g):
        return w[g] @ x + w[g + 4] @ h + b[g] + b[g + 4]
    c = _sigmoid(gate(1)) * c + _sigmoid(gate(0)) * numpy.tanh(gate(2))
    return _sigmoid(gate(3)) * numpy.tanh(c), c


_STEPS = {'rnn': _rnn_step('tanh'), 'rnn_relu': _rnn_step('relu'),
          'gru': _gru_step, 'lstm': _lstm_step}
_N_WEIGHTS = {'rnn': 2, 'rnn_relu': 2, 'gru': 6, 'lstm': 8}


def _param_shapes(kind, n_layers, bi, in_size, units):
    """The shapes of ws[0][0], ws[0][1], ..., then of bs[0][0], ..."""
    n_directions = 2 if bi else 1
    n_weights = _N_WEIGHTS[kind]
    w_shapes = []
    for index in range(n_layers * n_directions):
        layer_in = in_size if index < n_directions else units * n_directions
        w_shapes += [(units, layer_in if j < n_weights // 2 else units)
                     for j in range(n_weights)]
    return w_shapes + [(units,)] * len(w_shapes)


def _unflatten(arrays, kind, n_layers, bi, batches, split, reshape):
    """(hx, cx or None, ws, bs, xs) from the record inputs (hx, [cx,]
    params, x): the weights and biases flattened into one vector, the
    time steps concatenated; ``split`` and ``reshape`` cut them apart."""
    hx, *rest, params, x = arrays
    cx = rest[0] if rest else None
    shapes = _param_shapes(kind, n_layers, bi, x.shape[1], hx.shape[2])
    sizes = [int(numpy.prod(shape)) for shape in shapes]
    pieces = [reshape(piece, shape) for piece, shape in zip(
        split(params, list(numpy.cumsum(sizes[:-1]))), shapes)]
    n_weights = _N_WEIGHTS[kind]
    nested = [pieces[i:i + n_weights]
              for i in range(0, len(pieces), n_weights)]
    xs = split(x, list(numpy.cumsum(batches[:-1])))
    return hx, cx, nested[:len(nested) // 2], nested[len(nested) // 2:], xs


def _numpy_split(x, offsets):
    return numpy.split(x, offsets)


def _variable_split(x, offsets):
    return F.split_axis(x, offsets, axis=0)


def _reference(*arrays, kind, n_layers, bi, batches):
    """Each sequence through each layer and direction, one vector at a
    time."""
    hx, cx, ws, bs, xs = _unflatten(arrays, kind, n_layers, bi, batches,
                                    _numpy_split, numpy.reshape)
    step = _STEPS[kind]
    n_directions = 2 if bi else 1
    hy = numpy.zeros_like(hx)
    cy = numpy.zeros_like(hx)
    ys = [numpy.zeros((len(x), hx.shape[2] * n_directions)) for x in xs]
    for seq in range(hx.shape[1]):
        inputs = [x[seq] for x in xs if len(x) > seq]
        for layer in range(n_layers):
            outputs = []
            for direction in range(n_directions):
                index = layer * n_directions + direction
                h = hx[index, seq]
                c = None if cx is None else cx[index, seq]
                order = range(len(inputs))
                hs = [None] * len(inputs)
                for t in (reversed(order) if direction else order):
                    h, c = step(inputs[t], h, c, ws[index], bs[index])
                    hs[t] = h
                hy[index, seq] = h
                if c is not None:
                    cy[index, seq] = c
                outputs.append(hs)
            inputs = [numpy.concatenate(hs_t) for hs_t in zip(*outputs)]
        for t, y in enumerate(inputs):
            ys[t][seq] = y
    return ((hy,) if cx is None else (hy, cy)) + (numpy.concatenate(ys),)


def _call(func, kind, bi, **fixed):
    def call(*arrays, n_layers, batches):
        hx, cx, ws, bs, xs = _unflatten(arrays, kind, n_layers, bi, batches,
                                        _variable_split, F.reshape)
        states = (hx,) if cx is None else (hx, cx)
        outputs = func(n_layers, 0.0, *states, ws, bs, xs, **fixed)
        return outputs[:-1] + (F.concat(outputs[-1], axis=0),)
    return call


@st.composite
def _n_step_sample(draw, kind, bi):
    """Tiny stacks: batch and units through shapes() (either may be zero
    in the zero-size check), decreasing batch sizes per time step."""
    batch, units = draw(shapes(min_dims=2, max_dims=2, max_side=2))
    in_size = draw(st.integers(1, 2))
    n_layers = draw(st.integers(1, 1 if bi else 2))
    n_directions = 2 if bi else 1
    n_states = n_layers * n_directions
    lengths = draw(st.lists(st.integers(0, batch), min_size=1, max_size=3))
    batches = sorted(lengths, reverse=True)
    batches[0] = batch
    state_shape = (n_states, batch, units)
    states = [draw(floats(shape=state_shape, low=-1, high=1))
              for _ in range(2 if kind == 'lstm' else 1)]
    param_shapes = _param_shapes(kind, n_layers, bi, in_size, units)
    params = draw(floats(shape=(sum(int(numpy.prod(shape))
                                    for shape in param_shapes),),
                         low=-1, high=1))
    if kind == 'rnn_relu':
        params = _away_from_relu_kink(params, param_shapes)
    x = draw(floats(shape=(sum(batches), in_size), low=-1, high=1))
    return sample(*states, params, x, n_layers=n_layers, batches=batches)


def _away_from_relu_kink(params, param_shapes):
    """Small weights, and bias pairs (b0, b1) of one sign with
    |b0| >= 2: then the bias outweighs the products in every
    pre-activation, which stays away from relu's kink."""
    n_biases = len(param_shapes) // 2
    units = param_shapes[-1][0]
    biases = params[len(params) - n_biases * units:].reshape(
        n_biases // 2, 2, units)
    b0, b1 = biases[:, 0], biases[:, 1]
    biases = numpy.stack([b0 + numpy.copysign(2.0, b0),
                          numpy.copysign(b1, b0)], axis=1)
    weights = params[:len(params) - n_biases * units] * 0.05
    return numpy.concatenate([weights, biases.ravel()])


for _name, _kind, _fixed in (
        ('n_step_rnn', 'rnn', {}),
        ('n_step_rnn:relu', 'rnn_relu', {'activation': 'relu'}),
        ('n_step_gru', 'gru', {}),
        ('n_step_lstm', 'lstm', {})):
    for _bi in (False, True):
        _public = _name.replace('n_step_', 'n_step_bi') if _bi else _name
        record(_public,
               _call(getattr(F, _public.partition(':')[0]), _kind, _bi,
                     **_fixed),
               reference=lambda *arrays, _kind=_kind, _bi=_bi, **kwargs:
               _reference(*arrays, kind=_kind, bi=_bi, **kwargs),
               inputs=_n_step_sample(_kind, _bi))
