"""Recurrent layers: one step and whole sequences against NumPy, the
state of the stateful layers (reset, set, shrinking batches, devices),
lazy in_size, initial biases, gradients, and copies of the n-step
layers."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import testing as autograd_testing
from kusari.links import layers as L

import connection_reference as ref

BACKENDS = [{}, {'use_cuda': True}]


def sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def linear(layer, x):
    y = x.astype(numpy.float64) @ layer.W.array.T.astype(numpy.float64)
    return y if layer.b is None else y + layer.b.array


def lstm_step(c, lstm_in):
    """F.lstm in NumPy: gates a, i, f, o interleaved."""
    a, i, f, o = (lstm_in.reshape(len(lstm_in), -1, 4)[:, :, k]
                  for k in range(4))
    c = numpy.tanh(a) * sigmoid(i) + sigmoid(f) * c[:len(lstm_in)]
    return c, sigmoid(o) * numpy.tanh(c)


def lstm_link_step(link, c, h, x):
    lstm_in = linear(link.upward, x)
    if h is not None:
        lstm_in = lstm_in + linear(link.lateral, h)
    if c is None:
        c = numpy.zeros((len(x), link.state_size))
    return lstm_step(c, lstm_in)


def test_lstm_is_stateful():
    link = L.LSTM(3, 4)
    xs = [ref.uniform(2, 3) for _ in range(3)]
    c = h = None
    for x in xs:
        y = link(x)
        c, h = lstm_link_step(link, c, h, x)
        numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.c.array, c, rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.c is None and link.h is None
    numpy.testing.assert_allclose(
        link(xs[0]).array, lstm_link_step(link, None, None, xs[0])[1],
        rtol=1e-5, atol=1e-6)


def test_the_zero_state_is_a_constant():
    # Made in the link's code on a first call: it needs no gradient (and so
    # a static_graph chain calling the link accepts it).
    state = L.LSTM(3, 4).zero_state(2, numpy.float32)
    assert state.shape == (2, 4) and not state.requires_grad
    assert not state.array.any()


def test_lstm_shrinking_batch_keeps_the_rest_of_the_state():
    link = L.LSTM(3, 4)
    link(ref.uniform(3, 3))
    c0, h0 = link.c.array.copy(), link.h.array.copy()
    x = ref.uniform(2, 3)
    y = link(x)
    c, h = lstm_link_step(link, c0, h0[:2], x)
    numpy.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_array_equal(link.h.array[2:], h0[2:])
    numpy.testing.assert_array_equal(link.c.array[2:], c0[2:])
    with pytest.raises(TypeError, match='batch size'):
        link(ref.uniform(4, 3))


def test_lstm_set_state_and_lazy_in_size():
    link = L.LSTM(4)
    assert link.upward.W.array is None
    c, h = Variable(ref.uniform(2, 4)), Variable(ref.uniform(2, 4))
    link.set_state(c, h)
    x = ref.uniform(2, 5)
    y = link(x)
    assert link.upward.W.shape == (16, 5)
    expected = lstm_link_step(link, c.array, h.array, x)[1]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match='must be a Variable'):
        link.set_state(c.array, h)


def test_lstm_initial_biases():
    link = L.LSTM(3, 2, forget_bias_init=5, bias_init=-1)
    gates = link.upward.b.array.reshape(2, 4)
    numpy.testing.assert_array_equal(gates[:, 2], 5)
    numpy.testing.assert_array_equal(gates[:, [0, 1, 3]], -1)
    assert not (link.lateral.W.array == 0).any()


def test_stateless_lstm():
    link = L.StatelessLSTM(3, 4)
    x, c, h = ref.uniform(2, 3), ref.uniform(2, 4), ref.uniform(2, 4)
    c_new, h_new = link(c, h, x)
    expected_c, expected_h = lstm_link_step(link, c, h, x)
    numpy.testing.assert_allclose(c_new.array, expected_c, rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(h_new.array, expected_h, rtol=1e-5,
                                  atol=1e-6)
    _, h_zero = link(None, None, x)
    numpy.testing.assert_allclose(
        h_zero.array, lstm_link_step(link, None, None, x)[1], rtol=1e-5,
        atol=1e-6)


def gru_step(link, h, x):
    r = sigmoid(linear(link.W_r, x) + linear(link.U_r, h))
    z = sigmoid(linear(link.W_z, x) + linear(link.U_z, h))
    h_bar = numpy.tanh(linear(link.W, x) + linear(link.U, r * h))
    return z * h_bar + (1 - z) * h


def test_grus():
    x, h = ref.uniform(2, 3), ref.uniform(2, 4)
    stateless = L.StatelessGRU(3, 4)
    numpy.testing.assert_allclose(stateless(h, x).array,
                                  gru_step(stateless, h, x), rtol=1e-5,
                                  atol=1e-6)
    stateful = L.GRU(3, 4)
    first = gru_step(stateful, numpy.zeros((2, 4)), x)
    numpy.testing.assert_allclose(stateful(x).array, first, rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(stateful(x).array,
                                  gru_step(stateful, first, x), rtol=1e-5,
                                  atol=1e-5)
    stateful.set_state(Variable(h))
    numpy.testing.assert_allclose(stateful(x).array,
                                  gru_step(stateful, h, x), rtol=1e-5,
                                  atol=1e-6)
    with pytest.raises(ValueError, match='StatelessGRU'):
        stateful(h, x)


def test_peephole_and_zoneout_lstms():
    x = ref.uniform(2, 3)
    link = L.StatefulPeepholeLSTM(3, 4)
    c = numpy.zeros((2, 4))
    for _ in range(2):
        h_prev = link.h.array if link.h is not None else None
        lstm_in = linear(link.upward, x)
        if h_prev is not None:
            lstm_in = lstm_in + linear(link.lateral, h_prev)
        a, i, f, o = (lstm_in.reshape(2, 4, 4)[:, :, k] for k in range(4))
        i = sigmoid(i + linear(link.peep_i, c))
        f = sigmoid(f + linear(link.peep_f, c))
        c = numpy.tanh(a) * i + f * c
        h = sigmoid(o + linear(link.peep_o, c)) * numpy.tanh(c)
        numpy.testing.assert_allclose(link(x).array, h, rtol=1e-5,
                                      atol=1e-6)
    zoneout = L.StatefulZoneoutLSTM(3, 4, c_ratio=0, h_ratio=0)
    c = h = None
    for _ in range(2):
        c, h = lstm_link_step(zoneout, c, h, x)
        numpy.testing.assert_allclose(zoneout(x).array, h, rtol=1e-5,
                                      atol=1e-6)


def test_mgus():
    x, h = ref.uniform(2, 3), ref.uniform(2, 4)
    link = L.StatelessMGU(3, 4)
    f = sigmoid(linear(link.W_f, numpy.concatenate([h, x], axis=1)))
    h_bar = numpy.tanh(linear(link.W_h,
                              numpy.concatenate([f * h, x], axis=1)))
    numpy.testing.assert_allclose(link(h, x).array,
                                  f * h_bar + (1 - f) * h, rtol=1e-5,
                                  atol=1e-6)
    stateful = L.StatefulMGU(3, 4)
    assert stateful(x).shape == (2, 4) and stateful.h is not None


def tree_lstm_step(cs, gates, n):
    a, i, o, *fs = numpy.split(gates, 3 + n, axis=1)
    c = numpy.tanh(a) * sigmoid(i) + sum(
        sigmoid(f) * c_k for f, c_k in zip(fs, cs))
    return c, sigmoid(o) * numpy.tanh(c)


def test_child_sum_tree_lstm():
    link = L.ChildSumTreeLSTM(3, 4)
    x = ref.uniform(2, 3)
    cs, hs = [ref.uniform(2, 4) for _ in range(3)], \
        [ref.uniform(2, 4) for _ in range(3)]
    c, h = link(*cs, *hs, x)
    x_aio, x_f = numpy.split(linear(link.W_x, x), [12], axis=1)
    aio = linear(link.W_h_aio, sum(hs)) + x_aio
    fs = [linear(link.W_h_f, h_k) + x_f for h_k in hs]
    expected = tree_lstm_step(cs, numpy.concatenate([aio] + fs, axis=1), 3)
    numpy.testing.assert_allclose(c.array, expected[0], rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(h.array, expected[1], rtol=1e-5,
                                  atol=1e-6)
    leaf_c, _ = link(None, None, x)
    assert leaf_c.shape == (2, 4)
    with pytest.raises(ValueError, match='all inputs'):
        link(None, None, None)
    with pytest.raises(TypeError, match='n >= 0; got 2 arguments'):
        link(cs[0], x)


def test_child_sum_tree_lstm_leaf_without_children():
    # x alone, as Chainer 7.8.1 allows: no forget gates, no cell input.
    link = L.ChildSumTreeLSTM(3, 4)
    x = ref.uniform(2, 3)
    c, h = link(x)
    a, i, o = numpy.split(linear(link.W_x, x)[:, :12], 3, axis=1)
    expected_c = sigmoid(i) * numpy.tanh(a)
    numpy.testing.assert_allclose(c.array, expected_c, rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(h.array, sigmoid(o) * numpy.tanh(
        expected_c), rtol=1e-5, atol=1e-6)


def test_nary_tree_lstm():
    link = L.NaryTreeLSTM(3, 4, n_ary=2)
    x = ref.uniform(2, 3)
    cs, hs = [ref.uniform(2, 4) for _ in range(2)], \
        [ref.uniform(2, 4) for _ in range(2)]
    c, h = link(*cs, *hs, x)
    gates = linear(link.W_x, x) + linear(link.W_h1, hs[0]) + \
        linear(link.W_h2, hs[1])
    expected = tree_lstm_step(cs, gates, 2)
    numpy.testing.assert_allclose(h.array, expected[1], rtol=1e-5,
                                  atol=1e-6)
    assert link(None, None, None, None, x)[0].shape == (2, 4)
    with pytest.raises(TypeError, match='expected 5 arguments'):
        link(None, x)


def n_step_reference(link, hx, cx, xs):
    """NumPy stacked (bi)LSTM / GRU / RNN over batch-major sequences."""
    kind = type(link).__name__
    directions = link.direction
    hy, cy = numpy.array(hx, numpy.float64), numpy.array(cx, numpy.float64)
    inputs = [x.astype(numpy.float64) for x in xs]
    for layer in range(link.n_layers):
        outputs = []
        for d in range(directions):
            index = layer * directions + d
            w = [p.array.astype(numpy.float64) for p in link.ws[index]]
            b = [p.array.astype(numpy.float64) for p in link.bs[index]]
            per_sequence = []
            for s, x in enumerate(inputs):
                h, c = hy[index, s], cy[index, s]
                steps = range(len(x))[::-1] if d else range(len(x))
                out = [None] * len(x)
                for t in steps:
                    h, c = _cell(kind, w, b, x[t], h, c)
                    out[t] = h
                hy[index, s], cy[index, s] = h, c
                per_sequence.append(numpy.array(out))
            outputs.append(per_sequence)
        inputs = [numpy.concatenate([o[s] for o in outputs], axis=1)
                  for s in range(len(xs))]
    return hy, cy, inputs


def _cell(kind, w, b, x, h, c):
    if 'LSTM' in kind:
        i, f, a, o = (w[k] @ x + w[k + 4] @ h + b[k] + b[k + 4]
                      for k in range(4))
        c = sigmoid(f) * c + sigmoid(i) * numpy.tanh(a)
        return sigmoid(o) * numpy.tanh(c), c
    if 'GRU' in kind:
        r = sigmoid(w[0] @ x + w[3] @ h + b[0] + b[3])
        z = sigmoid(w[1] @ x + w[4] @ h + b[1] + b[4])
        n = numpy.tanh(w[2] @ x + b[2] + r * (w[5] @ h + b[5]))
        return (1 - z) * n + z * h, c
    pre = w[0] @ x + w[1] @ h + b[0] + b[1]
    return (numpy.maximum(pre, 0) if 'ReLU' in kind else numpy.tanh(pre)), c


N_STEP_LINKS = [L.NStepLSTM, L.NStepBiLSTM, L.NStepGRU, L.NStepBiGRU,
                L.NStepRNNTanh, L.NStepRNNReLU, L.NStepBiRNNTanh,
                L.NStepBiRNNReLU]


@pytest.mark.parametrize('cls', N_STEP_LINKS)
@pytest.mark.parametrize('given_states', [False, True])
def test_n_step_links_against_numpy(cls, given_states):
    link = cls(2, 3, 4, 0.0)
    directions = link.direction
    assert len(link) == 2 * directions
    xs = [ref.uniform(n, 3) for n in (2, 4, 1)]
    shape = (2 * directions, 3, 4)
    hx = ref.uniform(*shape) if given_states else None
    cx = ref.uniform(*shape) if given_states else None
    is_lstm = link.n_cells == 2
    if is_lstm:
        hy, cy, ys = link(hx, cx, xs)
    else:
        hy, ys = link(hx, xs)
    zeros = numpy.zeros(shape)
    e_hy, e_cy, e_ys = n_step_reference(
        link, zeros if hx is None else hx, zeros if cx is None else cx, xs)
    numpy.testing.assert_allclose(hy.array, e_hy, rtol=1e-4, atol=1e-5)
    if is_lstm:
        numpy.testing.assert_allclose(cy.array, e_cy, rtol=1e-4, atol=1e-5)
    assert isinstance(ys, list) and len(ys) == 3
    for y, expected in zip(ys, e_ys):
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-4,
                                      atol=1e-5)


def test_n_step_layout_copy_and_bad_input():
    link = L.NStepBiLSTM(2, 3, 4, 0.5)
    assert link[0].w0.shape == (4, 3) and link[0].w4.shape == (4, 4)
    assert link[2].w0.shape == (4, 8)
    assert [name for name, _ in link[0].namedparams()][:3] == \
        ['/b0', '/b1', '/b2']
    copied = link.copy()
    assert copied.ws[0][0] is copied[0].w0
    assert copied.ws[0][0] is not link.ws[0][0]
    assert copied.ws[0][0].array is link.ws[0][0].array
    with pytest.raises(ValueError, match='use_cudnn'):
        L.NStepLSTM(1, 3, 4, 0.0, use_cudnn=True)
    with pytest.raises(ValueError, match='train argument'):
        link(None, None, [ref.uniform(2, 3)], train=False)
    with pytest.raises(TypeError, match='non-empty list'):
        link(None, None, ref.uniform(2, 3))


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestStatelessLSTMGradients(ref.ConnectionLinkTest):
    # The parameters live in child links, whose gradients the Linear
    # tests check; float32 weights keep the numerical gradient float32.
    numerical_grad_dtype = None

    def before_test(self, test_name):
        super().before_test(test_name)
        self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2,
                                       'eps': 1e-2}

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return L.StatelessLSTM(3, 2)

    def generate_inputs(self):
        return ref.uniform(2, 2), ref.uniform(2, 2), ref.uniform(2, 3)

    def forward(self, link, inputs, device):
        return link(*inputs)

    def forward_expected(self, link, inputs):
        c, h, x = inputs
        return tuple(a.astype(numpy.float32)
                     for a in lstm_link_step(link, c, h, x))


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestNStepGRUGradients(ref.ConnectionLinkTest):
    numerical_grad_dtype = None

    def before_test(self, test_name):
        super().before_test(test_name)
        self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2,
                                       'eps': 1e-2}

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return L.NStepBiGRU(1, 2, 2, 0.0)

    def generate_inputs(self):
        return ref.uniform(2, 2, 2), ref.uniform(3, 2), ref.uniform(1, 2)

    def forward(self, link, inputs, device):
        hx, *xs = inputs
        hy, ys = link(hx, list(xs))
        return (hy, *ys)

    def forward_expected(self, link, inputs):
        hx, *xs = inputs
        hy, _, ys = n_step_reference(link, hx, numpy.zeros_like(hx), xs)
        return tuple(a.astype(numpy.float32) for a in (hy, *ys))
