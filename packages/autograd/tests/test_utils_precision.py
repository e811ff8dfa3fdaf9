"""``utils.precision``: float16 functions computed in float32, and
``utils.force_type``."""
import numpy

from kusari.autograd import FunctionNode
from kusari.autograd.utils.array import force_type
from kusari.autograd.utils import precision


class Seen(FunctionNode):
    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        self.seen = inputs
        return inputs[0] * 2, inputs[1]


def test_float16_inputs_computed_in_float32():
    x = numpy.ones(3, numpy.float16)
    i = numpy.ones(3, numpy.int8)
    f = Seen()
    y, j = f.apply((x, i))
    assert f.seen[0].dtype == numpy.float32 and f.seen[1] is i
    assert y.dtype == numpy.float16 and j.dtype == numpy.int8
    z = numpy.ones(3, numpy.float32)
    g = Seen()
    g.apply((z, z))
    assert g.seen[0] is z


def test_force_type():
    assert force_type(numpy.dtype('f'), numpy.int32(1)).dtype == \
        numpy.float32
    x = numpy.ones(2, numpy.int32)
    assert force_type(numpy.dtype('f'), x).dtype == numpy.float32
    y = numpy.ones(2, numpy.float32)
    assert force_type(numpy.dtype('f'), y) is y
