"""Export of Kusari models to ONNX (the ONNX-Chainer API).

``export(model, args)`` traces one forward call of ``model`` and converts
every function it applies to ONNX nodes; opsets 7 to 28 of the default
domain are supported (``MINIMUM_OPSET_VERSION``,
``MAXIMUM_OPSET_VERSION``), the newest the installed onnx knows by
default. onnxruntime 1.32 runs every converter's graph at each of them.
"""
from kusari.array import parts as _parts
from kusari.onnx import context  # NOQA: F401
from kusari.onnx import mapping  # NOQA: F401
from kusari.onnx import functions  # NOQA: F401
from kusari.onnx import onnx_helper  # NOQA: F401
from kusari.onnx import replace_func  # NOQA: F401
from kusari.onnx import testing  # NOQA: F401
from kusari.onnx.export import MAXIMUM_OPSET_VERSION  # NOQA: F401
from kusari.onnx.export import MINIMUM_OPSET_VERSION  # NOQA: F401
from kusari.onnx.export import convert_parameter  # NOQA: F401
from kusari.onnx.export import export  # NOQA: F401
from kusari.onnx.export import export_testcase  # NOQA: F401

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-onnx')
