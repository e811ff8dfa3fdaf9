"""The Chainer version whose API this drop-in provides (as Chainer's own
``chainer._version``)."""
__version__ = '7.8.1'
