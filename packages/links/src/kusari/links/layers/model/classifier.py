"""The Classifier model, at Chainer's module path
``chainer.links.model.classifier``."""
from kusari.links.classifier import Classifier  # NOQA
