"""Records of the recurrent layers. A stateful layer is given its state as
inputs before each call, so that repeated calls give the same outputs and
the gradients of the state are checked too."""
import numpy

from harness.link_record import link_record
from kusari.array.configuration import using_config
from kusari.autograd import functions as F
from kusari.links import layers as L
from links.connection import W_4x3
from links.connection import given
from links.connection import linear
from links.connection import no_bias
from links.connection import on
from links.connection import uniform
from links.connection import zero_bias

_NO_LAZY = 'the input size is part of every weight; there is no lazy form'


def _default_map(x, layer):
    """``layer``'s (a Linear of a GRU) map of ``x`` with the default
    bias, zero."""
    return F.linear(x, layer.W.array, zero_bias(layer))


def _initialized_map(x, layer):
    """The map of ``x`` by a GRU's Linear ``layer`` built by
    ``_GRU_INITS``: weights 0.5 from the input (``W*``), -0.25 from the
    state (``U*``), bias 0.125."""
    size, in_size = layer.W.shape
    weight = 0.5 if in_size == 3 else -0.25
    return F.linear(x, on(layer, numpy.full((size, in_size), weight)),
                    on(layer, [0.125] * size))


_GRU_INITS = {'init': 0.5, 'inner_init': -0.25, 'bias_init': 0.125}


def gru(link, h, x, apply=_default_map):
    """The documented GRU step on a GRU's six linear maps (applied by
    ``apply(x, layer)``); ``h`` None for the first step of a stateful
    one, from no state."""
    z = apply(x, link.W_z)
    h_bar = apply(x, link.W)
    if h is None:
        return F.sigmoid(z) * F.tanh(h_bar)
    r = F.sigmoid(apply(x, link.W_r) + apply(h, link.U_r))
    z = F.sigmoid(z + apply(h, link.U_z))
    h_bar = F.tanh(h_bar + apply(r * h, link.U))
    return F.linear_interpolate(z, h_bar, h)


def mgu(link, h, x):
    """The documented MGU step."""
    f = F.sigmoid(linear(F.concat([h, x]), link.W_f))
    h_bar = F.tanh(linear(F.concat([f * h, x]), link.W_h))
    return F.linear_interpolate(f, h_bar, h)


def gates(lstm_in, size):
    """The a, i, f, o gates interleaved in ``lstm_in`` as F.lstm reads
    them."""
    return F.separate(F.reshape(lstm_in, (-1, size, 4)), axis=2)


def peephole(link, c, h, x):
    """The documented peephole LSTM step: ``(c_new, h_new)``."""
    a, i, f, o = gates(linear(x, link.upward) + linear(h, link.lateral), 4)
    i = F.sigmoid(i + linear(c, link.peep_i))
    f = F.sigmoid(f + linear(c, link.peep_f))
    c = F.tanh(a) * i + f * c
    return c, F.sigmoid(o + linear(c, link.peep_o)) * F.tanh(c)


def zoneout_lstm(link, c, h, x):
    """The documented zoneout LSTM step: ``(c_new, h_new)``."""
    a, i, f, o = gates(linear(x, link.upward) + linear(h, link.lateral), 4)
    c_new = F.tanh(a) * F.sigmoid(i) + F.sigmoid(f) * c
    return (F.zoneout(c, c_new, link.c_ratio),
            F.zoneout(h, F.sigmoid(o) * F.tanh(c_new), link.h_ratio))


def stateful(set_state, *outputs):
    """``call`` of a stateful layer: set the state from the first inputs,
    step on the last, return the step's output and the ``outputs``
    states."""
    def call(link, *inputs):
        set_state(link, *inputs[:-1])
        y = link(inputs[-1])
        return (y, *[getattr(link, name) for name in outputs])
    return call


def _set_c_h(link, c, h):
    link.c, link.h = c, h


def _set_h(link, h):
    link.h = h


def _inference(call):
    """``call`` in inference mode (zoneout keeps no random units)."""
    def in_inference(link, *inputs):
        with using_config('train', False):
            return call(link, *inputs)
    return in_inference


def gate_bias(link, bias=0.0, forget=1.0):
    """The bias an LSTM's ``upward`` map starts with: ``bias`` for the
    a, i, o gates and ``forget`` for the f gate (by default 0 and 1),
    interleaved as F.lstm reads them."""
    return on(link, numpy.tile([bias, bias, forget, bias],
                               link.state_size))


def lstm_in(link, h, x, upward_W=None, bias=None, lateral_W=None):
    """The gate pre-activations of an LSTM step from ``x`` and (unless
    None) ``h``: its weights (or those given) and the default bias (or
    the one given)."""
    y = F.linear(x, link.upward.W.array if upward_W is None else upward_W,
                 gate_bias(link) if bias is None else bias)
    if h is None:
        return y
    return y + F.linear(h, link.lateral.W.array if lateral_W is None
                        else lateral_W, no_bias(link.lateral))


def _zeros(link, x):
    return link.xp.zeros((x.shape[0], link.state_size), x.dtype)


_GATE_INITS = dict(upward_init=W_4x3, lateral_init=0.25, bias_init=0.5,
                   forget_bias_init=-0.5)


def _initialized(build):
    """``build`` with the gate initializers of ``_GATE_INITS`` (the
    per-gate upward weight given as an array)."""
    def initialized(*args):
        with_array = dict(_GATE_INITS, upward_init=given(W_4x3))
        return build(*args, **with_array)
    return initialized


def _initialized_lstm_in(link, h, x):
    """lstm_in of a layer built by ``_initialized``: every gate's upward
    weight is ``W_4x3``, the lateral weights 0.25."""
    return lstm_in(link, h, x, on(link, numpy.tile(W_4x3, (4, 1))),
                   gate_bias(link, 0.5, -0.5),
                   on(link, numpy.full((16, 4), 0.25)))


def _fresh(link, x):
    """A stateful LSTM's first step (outputs y and c) from no state."""
    link.reset_state()
    return link(x), link.c


def _smaller_batch(link, c, h, x):
    """A step on the first 3 rows of a state of 4: ``(y, c, h)``."""
    c_new, y = F.lstm(c, lstm_in(link, h[:3], x))
    return y, c_new, F.concat([y, h[3:]], axis=0)


link_record(
    'LSTM', lambda: L.LSTM(3, 4), uniform((2, 4), (2, 4), (2, 3)),
    lambda link, c, h, x: F.lstm(c, lstm_in(link, h, x))[::-1],
    call=stateful(_set_c_h, 'c'), lazy=lambda: L.LSTM(None, 4))
link_record(
    'LSTM:initializers', lambda: _initialized(L.LSTM)(3, 4),
    uniform((2, 4), (2, 4), (2, 3)),
    lambda link, c, h, x: F.lstm(c, _initialized_lstm_in(link, h, x))[::-1],
    call=stateful(_set_c_h, 'c'), lazy=lambda: _initialized(L.LSTM)(4))
link_record(
    # No state yet: c starts at zeros and h adds nothing.
    'LSTM:fresh_state', lambda: L.LSTM(3, 4), uniform((2, 3)),
    lambda link, x: F.lstm(_zeros(link, x), lstm_in(link, None, x))[::-1],
    call=_fresh, lazy=lambda: L.LSTM(4))
link_record(
    # A batch smaller than the state's (sequences sorted by decreasing
    # length): the first rows step, the last row of h is kept (F.lstm
    # keeps c's). A batch larger than the state size tells the batch
    # axis from the other.
    'LSTM:smaller_batch', lambda: L.LSTM(3, 2),
    uniform((4, 2), (4, 2), (3, 3)),
    _smaller_batch, call=stateful(_set_c_h, 'c', 'h'),
    lazy=lambda: L.LSTM(None, 2))
link_record(
    'StatelessLSTM', lambda: L.StatelessLSTM(3, 4),
    uniform((2, 4), (2, 4), (2, 3)),
    lambda link, c, h, x: F.lstm(c, lstm_in(link, h, x)),
    lazy=lambda: L.StatelessLSTM(None, 4))
link_record(
    'StatelessLSTM:initializers',
    lambda: _initialized(L.StatelessLSTM)(3, 4),
    uniform((2, 4), (2, 4), (2, 3)),
    lambda link, c, h, x: F.lstm(c, _initialized_lstm_in(link, h, x)),
    lazy=lambda: _initialized(L.StatelessLSTM)(4))
link_record(
    # c and h None: zeros, and no lateral term.
    'StatelessLSTM:no_state', lambda: L.StatelessLSTM(3, 4),
    uniform((2, 3)),
    lambda link, x: F.lstm(_zeros(link, x), lstm_in(link, None, x)),
    call=lambda link, x: link(None, None, x),
    lazy=lambda: L.StatelessLSTM(4))
for _name in ('GRU', 'StatefulGRU'):
    link_record(
        _name, lambda name=_name: getattr(L, name)(3, 4),
        uniform((2, 4), (2, 3)), gru, call=stateful(_set_h),
        lazy=lambda name=_name: getattr(L, name)(None, 4))
link_record(
    'StatelessGRU', lambda: L.StatelessGRU(3, 4), uniform((2, 4), (2, 3)),
    gru, lazy=lambda: L.StatelessGRU(None, 4))
link_record(
    'StatelessGRU:initializers',
    lambda: L.StatelessGRU(3, 4, **_GRU_INITS), uniform((2, 4), (2, 3)),
    lambda link, h, x: gru(link, h, x, _initialized_map),
    lazy=lambda: L.StatelessGRU(None, 4, **_GRU_INITS))
link_record(
    'StatefulGRU:initializers',
    lambda: L.StatefulGRU(3, 4, **_GRU_INITS), uniform((2, 4), (2, 3)),
    lambda link, h, x: gru(link, h, x, _initialized_map),
    call=stateful(_set_h), lazy=lambda: L.StatefulGRU(None, 4, **_GRU_INITS))
link_record(
    # No state yet: the first step is z * h_bar.
    'StatefulGRU:fresh_state', lambda: L.StatefulGRU(3, 4), uniform((2, 3)),
    lambda link, x: gru(link, None, x),
    call=lambda link, x: (link.reset_state(), link(x))[1],
    reason='a first step without state leaves W_r, unused, uninitialized '
           '(as in Chainer); the lazy form is checked by StatefulGRU')
link_record(
    'StatefulMGU', lambda: L.StatefulMGU(3, 4), uniform((2, 4), (2, 3)),
    mgu, call=stateful(_set_h), reason=_NO_LAZY)
link_record(
    'StatelessMGU', lambda: L.StatelessMGU(3, 4), uniform((2, 4), (2, 3)),
    mgu, reason=_NO_LAZY)
link_record(
    'StatefulPeepholeLSTM', lambda: L.StatefulPeepholeLSTM(3, 4),
    uniform((2, 4), (2, 4), (2, 3)),
    lambda link, c, h, x: peephole(link, c, h, x)[::-1],
    call=stateful(_set_c_h, 'c'),
    lazy=lambda: L.StatefulPeepholeLSTM(None, 4))
link_record(
    'StatefulZoneoutLSTM', lambda: L.StatefulZoneoutLSTM(3, 4),
    uniform((2, 4), (2, 4), (2, 3)),
    _inference(lambda link, c, h, x: zoneout_lstm(link, c, h, x)[::-1]),
    call=_inference(stateful(_set_c_h, 'c')),
    lazy=lambda: L.StatefulZoneoutLSTM(None, 4))
link_record(
    'ChildSumTreeLSTM', lambda: L.ChildSumTreeLSTM(3, 4),
    uniform((2, 4), (2, 4), (2, 4), (2, 4), (2, 3)),
    lambda link, c1, c2, h1, h2, x: F.tree_lstm(c1, c2, F.concat([
        linear(h1 + h2, link.W_h_aio) + linear(x, link.W_x)[:, :12],
        linear(h1, link.W_h_f) + linear(x, link.W_x)[:, 12:],
        linear(h2, link.W_h_f) + linear(x, link.W_x)[:, 12:]])),
    reason=_NO_LAZY)
link_record(
    'NaryTreeLSTM', lambda: L.NaryTreeLSTM(3, 4),
    uniform((2, 4), (2, 4), (2, 4), (2, 4), (2, 3)),
    lambda link, c1, c2, h1, h2, x: F.tree_lstm(
        c1, c2, linear(x, link.W_x) + linear(h1, link.W_h1)
        + linear(h2, link.W_h2)),
    reason=_NO_LAZY)

# Sequences of decreasing lengths: the layers keep them in this order.
_SEQUENCES = uniform((3, 3), (2, 3), (2, 3))


def n_step(function, n_states):
    """The record parts of an n-step layer applying ``function``: inputs
    (``n_states`` initial states, then the sequences), ``call`` and
    the reference."""
    def inputs(rng):
        states = tuple(rng.uniform(-1, 1, (2, 3, 2))
                       for _ in range(n_states))
        return states + _SEQUENCES(rng)

    def call(link, *arrays):
        return link(*arrays[:n_states], list(arrays[n_states:]))

    def reference(link, *arrays):
        ws = [[w.array for w in layer] for layer in link.ws]
        bs = [[b.array for b in layer] for layer in link.bs]
        *states, ys = function(
            link.n_layers, 0.0, *arrays[:n_states], ws, bs,
            F.transpose_sequence(list(arrays[n_states:])))
        return (*states, F.transpose_sequence(ys))
    return inputs, call, reference


def _n_step_records():
    for name, function, n_states, layers in (
            ('NStepLSTM', F.n_step_lstm, 2, 2),
            ('NStepBiLSTM', F.n_step_bilstm, 2, 1),
            ('NStepGRU', F.n_step_gru, 1, 2),
            ('NStepBiGRU', F.n_step_bigru, 1, 1)):
        yield name, function, n_states, layers
    for activation in ('Tanh', 'ReLU'):
        def rnn(*args, function=F.n_step_rnn, activation=activation):
            return function(*args, activation=activation.lower())

        def birnn(*args, activation=activation):
            return rnn(*args, function=F.n_step_birnn,
                       activation=activation)
        yield f'NStepRNN{activation}', rnn, 1, 2
        yield f'NStepBiRNN{activation}', birnn, 1, 1


for _name, _function, _n_states, _layers in _n_step_records():
    _inputs, _call, _reference = n_step(_function, _n_states)
    # Two layers, or one in both directions: 2 hidden states per example.
    # Biases not zero keep rectified units off their kink.
    link_record(
        _name, lambda name=_name, layers=_layers: getattr(L, name)(
            layers, 3, 2, 0.0, initial_bias=0.25), _inputs, _reference,
        call=_call, reason=_NO_LAZY)
