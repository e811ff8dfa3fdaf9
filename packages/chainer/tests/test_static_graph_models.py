"""Models written for Chainer train the same with ``@static_graph`` as
define-by-run: the same parameters after 20 optimizer steps (bit for bit
where the replay computes in the same order), for the seed's MNIST MLP
as its usage example writes it, a LeNet, a residual block with batch
normalization and an LSTM language model (truncated BPTT, the LSTM links'
state carried between calls)."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import static_code  # noqa: F401 (the seed's import)
from chainer import static_graph
from chainer.graph_optimizations.static_graph import StaticScheduleFunction

STEPS = 20


# The seed's "Static Subgraph Optimizations: Usage" example, unchanged but
# for the base class's forward (its __call__ is the static one).
class MLP(chainer.Chain):

    """A fully-connected neural network for digit classification.

    """

    def __init__(self, n_units, n_out):
        super(MLP, self).__init__()
        with self.init_scope():
            # the size of the inputs to each layer will be inferred
            self.l1 = L.Linear(None, n_units)  # n_in -> n_units
            self.l2 = L.Linear(None, n_units)  # n_units -> n_units
            self.l3 = L.Linear(None, n_out)  # n_units -> n_out

    @static_graph
    def __call__(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


class DynamicMLP(MLP):

    def __call__(self, x):
        return MLP.__call__.__wrapped__(self, x)


class LeNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 4, 3)
            self.conv2 = L.Convolution2D(4, 6, 3)
            self.fc1 = L.Linear(6 * 2 * 2, 16)
            self.fc2 = L.Linear(16, 3)

    def forward(self, x):
        h = F.max_pooling_2d(self.conv1(x), 2)
        h = F.max_pooling_2d(self.conv2(h), 2)
        return self.fc2(F.relu(self.fc1(h)))


class StaticLeNet(LeNet):

    @static_graph
    def forward(self, x):
        return LeNet.forward(self, x)


class ResidualBlock(chainer.Chain):
    """conv-BN-relu-conv-BN, plus the input, relu; then a classifier."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv_a = L.Convolution2D(3, 3, 3, pad=1, nobias=True)
            self.bn_a = L.BatchNormalization(3)
            self.conv_b = L.Convolution2D(3, 3, 3, pad=1, nobias=True)
            self.bn_b = L.BatchNormalization(3)
            self.fc = L.Linear(3, 3)

    def forward(self, x):
        h = F.relu(self.bn_a(self.conv_a(x)))
        h = F.relu(x + self.bn_b(self.conv_b(h)))
        return self.fc(F.mean(h, axis=(2, 3)))


class StaticResidualBlock(ResidualBlock):

    @static_graph
    def forward(self, x):
        return ResidualBlock.forward(self, x)


def _train(model, optimizer, x_shape, seed=0, through_lossfun=False):
    """STEPS optimizer steps of softmax cross-entropy on random data (by
    ``update(lossfun, x, t)``, which updates the parameters of replays
    inside their backward, or backward then ``update()``); the model's
    parameters after them, by name."""
    rng = numpy.random.RandomState(seed)
    numpy.random.seed(seed)  # initial weights
    optimizer.setup(model)

    def lossfun(x, t):
        return F.softmax_cross_entropy(model(x), t)

    for _ in range(STEPS):
        x = rng.uniform(-1, 1, x_shape).astype(numpy.float32)
        t = rng.randint(0, 3, x_shape[0]).astype(numpy.int32)
        if through_lossfun:
            optimizer.update(lossfun, x, t)
            continue
        loss = lossfun(x, t)
        model.cleargrads()
        loss.backward()
        optimizer.update()
    return _parameters_of(model)


def _parameters_of(model):
    """Copies of ``model``'s parameter arrays, by name."""
    return {name: param.array.copy() for name, param in model.namedparams()}


def _same_parameters(static, dynamic, exact):
    assert static.keys() == dynamic.keys()
    for name in static:
        if exact:
            numpy.testing.assert_array_equal(static[name], dynamic[name],
                                             err_msg=name)
        else:
            numpy.testing.assert_allclose(static[name], dynamic[name],
                                          rtol=1e-5, atol=1e-6,
                                          err_msg=name)


def _models(static_class, dynamic_class, *args):
    numpy.random.seed(0)
    static = static_class(*args)
    numpy.random.seed(0)
    return static, dynamic_class(*args)


# Both ways of training: backward then update(), and update(lossfun),
# where the parameters of replays are updated inside their backward.
lossfun_or_not = pytest.mark.parametrize(
    'through_lossfun', [False, True], ids=['backward+update', 'lossfun'])


@lossfun_or_not
def test_the_seed_mlp_trains_as_define_by_run(through_lossfun):
    static, dynamic = _models(MLP, DynamicMLP, 10, 3)
    _same_parameters(_train(static, chainer.optimizers.Adam(), (5, 7),
                            through_lossfun=through_lossfun),
                     _train(dynamic, chainer.optimizers.Adam(), (5, 7)),
                     exact=True)
    assert static.static_schedule.generation > 0  # the last call replayed


@lossfun_or_not
def test_lenet_trains_as_define_by_run(through_lossfun):
    static, dynamic = _models(StaticLeNet, LeNet)
    shape = (4, 1, 14, 14)
    _same_parameters(
        _train(static, chainer.optimizers.MomentumSGD(lr=0.1), shape,
               through_lossfun=through_lossfun),
        _train(dynamic, chainer.optimizers.MomentumSGD(lr=0.1), shape),
        exact=True)
    assert static.static_schedule.generation > 0


@lossfun_or_not
@pytest.mark.parametrize('train', [True, False])
def test_a_residual_block_with_batch_normalization_trains_as_define_by_run(
        train, through_lossfun):
    static, dynamic = _models(StaticResidualBlock, ResidualBlock)
    shape = (4, 3, 5, 5)
    with chainer.using_config('train', train):
        _same_parameters(
            _train(static, chainer.optimizers.MomentumSGD(lr=0.1), shape,
                   through_lossfun=through_lossfun),
            _train(dynamic, chainer.optimizers.MomentumSGD(lr=0.1), shape),
            exact=True)
    assert static.static_schedule.generation > 0
    # The running statistics move on every replay too.
    numpy.testing.assert_array_equal(static.bn_a.avg_mean,
                                     dynamic.bn_a.avg_mean)
    numpy.testing.assert_array_equal(static.bn_b.avg_var,
                                     dynamic.bn_b.avg_var)


class LanguageModel(chainer.Chain):
    """EmbedID, two stacked LSTM links (state kept between calls), linear
    to the vocabulary."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(20, 6)
            self.lstm1 = L.LSTM(6, 6)
            self.lstm2 = L.LSTM(6, 6)
            self.out = L.Linear(6, 20)

    def forward(self, tokens):
        return self.out(self.lstm2(self.lstm1(self.embed(tokens))))


class StaticLanguageModel(LanguageModel):

    @static_graph
    def forward(self, tokens):
        return LanguageModel.forward(self, tokens)


def _train_language_model(model, bprop_len=4, through_lossfun=False):
    """STEPS updates of truncated BPTT over a random token stream, the
    LSTM states carried on (and reset halfway); the parameters after
    them, and how many calls were replays."""
    rng = numpy.random.RandomState(0)
    stream = rng.randint(0, 20, (3, STEPS * bprop_len + 1)).astype(
        numpy.int32)
    optimizer = chainer.optimizers.SGD(lr=0.5)
    optimizer.setup(model)
    replays = 0
    losses = []

    def lossfun(step):
        nonlocal replays
        loss = 0
        for i in range(step * bprop_len, (step + 1) * bprop_len):
            y = model(stream[:, i])
            replays += isinstance(y.creator, StaticScheduleFunction)
            loss += F.softmax_cross_entropy(y, stream[:, i + 1])
        losses.append(loss)
        return loss

    for step in range(STEPS):
        if step == STEPS // 2:
            model.lstm1.reset_state()
            model.lstm2.reset_state()
        if through_lossfun:
            optimizer.update(lossfun, step)
        else:
            loss = lossfun(step)
            model.cleargrads()
            loss.backward()
            optimizer.update()
        losses.pop().unchain_backward()
    return _parameters_of(model), replays


@lossfun_or_not
def test_an_lstm_language_model_trains_as_define_by_run(through_lossfun):
    static, dynamic = _models(StaticLanguageModel, LanguageModel)
    # The gradients of the weights used on every step are summed in
    # another order (a replay returns one per call): float32 rounding.
    static_parameters, replays = _train_language_model(
        static, through_lossfun=through_lossfun)
    _same_parameters(static_parameters, _train_language_model(dynamic)[0],
                     exact=False)
    # Most calls replayed, reading and setting the LSTM states.
    assert replays > STEPS * 4 // 2
    numpy.testing.assert_allclose(static.lstm2.h.array,
                                  dynamic.lstm2.h.array, rtol=1e-5)


def _trained_by_trainer(model, out):
    """The parameters of ``model`` after a Trainer's 12 iterations over a
    random dataset (StandardUpdater: ``update(lossfun)``, which updates
    the parameters of replays inside their backward)."""
    rng = numpy.random.RandomState(0)
    numpy.random.seed(0)  # initial weights (drawn at the first call)
    dataset = chainer.datasets.TupleDataset(
        rng.uniform(-1, 1, (60, 7)).astype(numpy.float32),
        rng.randint(0, 3, 60).astype(numpy.int32))
    classifier = L.Classifier(model)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(classifier)
    iterator = chainer.iterators.SerialIterator(dataset, 5, shuffle=False)
    updater = chainer.training.updaters.StandardUpdater(iterator, optimizer)
    chainer.training.Trainer(updater, (12, 'iteration'), out=out).run()
    return _parameters_of(model)


def test_the_seed_mlp_trains_through_a_trainer_as_define_by_run(tmp_path):
    static, dynamic = _models(MLP, DynamicMLP, 10, 3)
    _same_parameters(_trained_by_trainer(static, tmp_path / 'static'),
                     _trained_by_trainer(dynamic, tmp_path / 'dynamic'),
                     exact=True)
    assert static.static_schedule.generation > 0
