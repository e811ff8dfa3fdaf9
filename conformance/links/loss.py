"""Records of the loss layers with parameters. The sampling ones draw
their negative words from the device's generator, seeded before each call
(and before the reference), so every call draws the same words."""
import numpy

from harness.link_record import link_record
from kusari.autograd import functions as F
from kusari.links import layers as L
from links.connection import linear

_COUNTS = [3, 2, 1, 4]
_LABELS = numpy.array([1, 3, 0], numpy.int32)
_SAMPLING_SEED = 5


def _words(rng):
    return rng.uniform(-1, 1, (3, 2)), _LABELS


def _seeded(link):
    """``link`` after seeding the generator its sampler draws from."""
    link.xp.random.seed(_SAMPLING_SEED)
    return link


link_record(
    'BlackOut', lambda: L.BlackOut(2, _COUNTS, 2), _words,
    lambda link, x, t: F.black_out(
        x, t, link.W.array, _seeded(link).sampler.sample((3, 2))),
    call=lambda link, x, t: _seeded(link)(x, t),
    reason='the vocabulary is an argument; there is no lazy form',
    device_draws=True)
link_record(
    'NegativeSampling', lambda: L.NegativeSampling(2, _COUNTS, 2), _words,
    lambda link, x, t: F.negative_sampling(
        x, t, link.W.array, _seeded(link).sampler.sample, 2),
    call=lambda link, x, t: _seeded(link)(x, t),
    reason='the vocabulary is an argument; there is no lazy form',
    device_draws=True)

# Internal nodes in pre-order: 0 the root, 1 its left child. A word's
# path turns left (+1) or right (-1) at each node from the root.
_TREE = ((0, 1), 2)
_PATHS = {0: {0: 1, 1: 1}, 1: {0: 1, 1: -1}, 2: {0: -1}}


def _hierarchical_softmax(link, x, t):
    """The documented loss: the sum over the batch and over the nodes of
    each word's path of ``softplus(-turn * <x, W[node]>)``."""
    turns = numpy.zeros((len(t), 2))
    for row, word in enumerate(t.tolist()):
        for node, turn in _PATHS[word].items():
            turns[row, node] = turn
    turns = link.xp.asarray(turns.astype(x.dtype))
    return F.sum(F.softplus(-turns * F.linear(x, link.W.array))
                 * abs(turns))


link_record(
    'BinaryHierarchicalSoftmax',
    lambda: L.BinaryHierarchicalSoftmax(2, _TREE),
    lambda rng: (rng.uniform(-1, 1, (3, 2)),
                 numpy.array([2, 0, 1], numpy.int32)),
    _hierarchical_softmax,
    reason='in_size is a required argument; there is no lazy form')
link_record(
    'CRF1d', lambda: L.CRF1d(3),
    lambda rng: (rng.uniform(-1, 1, (2, 3)), rng.uniform(-1, 1, (2, 3)),
                 rng.uniform(-1, 1, (1, 3)),
                 numpy.array([0, 2], numpy.int32),
                 numpy.array([1, 1], numpy.int32),
                 numpy.array([2], numpy.int32)),
    lambda link, *steps: F.crf1d(link.cost.array, list(steps[:3]),
                                 list(steps[3:])),
    call=lambda link, *steps: link(list(steps[:3]), list(steps[3:])),
    reason='the number of labels is an argument; there is no lazy form')
link_record(
    'Classifier', lambda: L.Classifier(L.Linear(3, 4)),
    lambda rng: (rng.uniform(-1, 1, (2, 3)), numpy.array([1, 3],
                                                          numpy.int32)),
    lambda link, x, t: F.softmax_cross_entropy(
        linear(x, link.predictor), t),
    lazy=lambda: L.Classifier(L.Linear(None, 4)))
