"""A Chain made of a function and named parameters, for the tests."""
import numpy

from kusari.autograd import Parameter
from kusari.links import Chain


class FunctionModel(Chain):
    """``forward(*xs, **kw) = fn(self, *xs, **kw)``, with ``params``
    (name -> array) registered as Parameters."""

    def __init__(self, fn, params=None):
        super().__init__()
        self.fn = fn
        with self.init_scope():
            for name, value in (params or {}).items():
                setattr(self, name, Parameter(numpy.asarray(value)))

    def forward(self, *xs, **kwargs):
        return self.fn(self, *xs, **kwargs)
