"""Computing a float16 function in float32 (Chainer's
``chainer.utils.precision``)."""
import functools

import numpy


def _fp16_mixed_precision_helper(fn):
    """Decorate a ``forward(self, inputs)`` to compute in float32 when an
    input is float16: float16 inputs are cast to float32, and then the
    float32 outputs back to float16. Other inputs and outputs (and every
    one when no input is float16) pass as they are.
    """
    @functools.wraps(fn)
    def forward(self, inputs):
        if not any(x is not None and x.dtype == numpy.float16
                   for x in inputs):
            return fn(self, inputs)
        inputs = tuple([x.astype(numpy.float32)
                        if x is not None and x.dtype == numpy.float16 else x
                        for x in inputs])
        outputs = fn(self, inputs)
        return tuple([y.astype(numpy.float16)
                      if y is not None and y.dtype == numpy.float32 else y
                      for y in outputs])
    return forward
