"""The guide's "Links" and "Creating Models" examples, run through
``import chainer``: the layers of kusari.links under Chainer's paths."""
import numpy
import pytest

from kusari.links import layers as kusari_links


@pytest.fixture
def chainer():
    import chainer
    return chainer


def test_links_guide_example(chainer):
    import chainer.links as L
    f = L.Linear(3, 2)
    assert f.W.shape == (2, 3) and f.W.dtype == numpy.float32
    numpy.testing.assert_array_equal(f.b.array, [0., 0.])
    x = chainer.Variable(numpy.array([[1, 2, 3], [4, 5, 6]], numpy.float32))
    y = f(x)
    numpy.testing.assert_allclose(
        y.array, x.array @ f.W.array.T, rtol=1e-6)
    f.cleargrads()
    y.grad = numpy.ones((2, 2), dtype=numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(f.W.grad, [[5, 7, 9], [5, 7, 9]])
    numpy.testing.assert_array_equal(f.b.grad, [2, 2])
    lazy = L.Linear(2)
    assert lazy.W.array is None
    lazy(numpy.zeros((2, 7), numpy.float32))
    assert lazy.W.shape == (2, 7)


def test_creating_models_guide_example(chainer):
    import chainer.links as L
    from chainer import Chain, ChainList
    l1, l2 = L.Linear(4, 3), L.Linear(3, 2)

    def my_forward(x):
        return l2(l1(x))

    class MyChain(Chain):
        def __init__(self):
            super(MyChain, self).__init__()
            with self.init_scope():
                self.l1 = L.Linear(4, 3)
                self.l2 = L.Linear(3, 2)

        def forward(self, x):
            h = self.l1(x)
            return self.l2(h)

    class MyChain2(ChainList):
        def __init__(self):
            super(MyChain2, self).__init__(
                L.Linear(4, 3),
                L.Linear(3, 2),
            )

        def forward(self, x):
            h = self[0](x)
            return self[1](h)

    x = numpy.random.uniform(-1, 1, (5, 4)).astype(numpy.float32)
    assert my_forward(x).shape == (5, 2)
    chain, chain_list = MyChain(), MyChain2()
    assert sorted(name for name, _ in chain.namedparams()) == [
        '/l1/W', '/l1/b', '/l2/W', '/l2/b']
    assert sorted(name for name, _ in chain_list.namedparams()) == [
        '/0/W', '/0/b', '/1/W', '/1/b']
    chain_list.copyparams(MyChain2())
    for model in (chain, chain_list):
        y = model(x)
        assert y.shape == (5, 2)
        model.cleargrads()
        chainer.functions.sum(y).backward()
        assert all(param.grad is not None for param in model.params())


def test_chainer_links_paths_are_the_kusari_modules(chainer):
    import chainer.links as L
    from chainer.links.connection import convolution_2d, linear
    from kusari.links.layers.connection import linear as kusari_linear
    assert linear is kusari_linear
    assert L.Linear is linear.Linear
    assert L.Convolution2D is convolution_2d.Convolution2D


def test_classifier_module_path():
    import chainer.links.model.classifier as module
    assert module.Classifier is kusari_links.Classifier
