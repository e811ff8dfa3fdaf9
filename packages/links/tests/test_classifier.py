"""Classifier with small loss and accuracy functions of its own."""
import numpy
import pytest

from kusari.autograd import functions as F
from kusari.links import Classifier, Reporter
from links_fakes import MLP


def squared_loss(y, t):
    return F.sum(F.square(y - t))


def first_column_accuracy(y, t):
    return numpy.float32((y.array[:, 0] > 0).mean())


def make(**kwargs):
    return Classifier(MLP(), lossfun=squared_loss,
                      accfun=first_column_accuracy, **kwargs)


def run(model, *args, **kwargs):
    reporter = Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(*args, **kwargs)
    return loss, observation


def test_reports_loss_and_accuracy():
    model = make()
    x = numpy.ones((4, 3), numpy.float32)
    t = numpy.zeros((4, 2), numpy.float32)
    loss, observation = run(model, x, t)
    assert sorted(observation) == ['main/accuracy', 'main/loss']
    numpy.testing.assert_allclose(
        loss.array, squared_loss(model.predictor(x), t).array)
    assert model.y is not None and model.loss is loss
    assert names(model) == ['/predictor/l1/W', '/predictor/l1/b',
                            '/predictor/l2/W', '/predictor/l2/b']


def names(model):
    return [name for name, _ in model.namedparams()]


def test_compute_accuracy_off():
    model = make()
    model.compute_accuracy = False
    _, observation = run(model, numpy.ones((2, 3), numpy.float32),
                         numpy.zeros((2, 2), numpy.float32))
    assert list(observation) == ['main/loss'] and model.accuracy is None


def test_label_keys():
    x = numpy.ones((2, 3), numpy.float32)
    t = numpy.zeros((2, 2), numpy.float32)
    first = make(label_key=0)
    loss, _ = run(first, t, x)
    keyword = make(label_key='t')
    keyword.copyparams(first)
    loss_kw, _ = run(keyword, x, t=t)
    numpy.testing.assert_array_equal(loss.array, loss_kw.array)
    # Chainer's wording ('Label key', 'label_key must be int or str').
    with pytest.raises(ValueError, match='Label key 2 is out of bounds'):
        make(label_key=2)(x, t)
    with pytest.raises(ValueError, match="Label key 't' is not found"):
        make(label_key='t')(x, t)
    with pytest.raises(TypeError, match='label_key must be int or str'):
        make(label_key=1.5)


def test_default_functions_are_chainers():
    if not hasattr(F, 'softmax_cross_entropy') or \
            not hasattr(F, 'accuracy'):
        pytest.skip('softmax_cross_entropy and accuracy are not yet in '
                    'kusari.autograd.functions')
    model = Classifier(MLP())
    assert model.lossfun is F.softmax_cross_entropy
    assert model.accfun is F.accuracy
