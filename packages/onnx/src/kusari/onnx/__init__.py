"""Export of Kusari models to ONNX (the ONNX-Chainer API).

``export(model, args)`` traces one forward call of ``model`` and converts
every function it applies to ONNX nodes; opsets 13 to 26 of the default
domain are supported (26, the newest onnx 1.23 and onnxruntime 1.31 both
run, by default).
"""
from kusari.array import parts as _parts
from kusari.onnx import context  # NOQA: F401
from kusari.onnx import functions  # NOQA: F401
from kusari.onnx import onnx_helper  # NOQA: F401
from kusari.onnx import replace_func  # NOQA: F401
from kusari.onnx import testing  # NOQA: F401
from kusari.onnx.export import MAX_OPSET_VERSION  # NOQA: F401
from kusari.onnx.export import MIN_OPSET_VERSION  # NOQA: F401
from kusari.onnx.export import export  # NOQA: F401
from kusari.onnx.export import export_testcase  # NOQA: F401

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-onnx')
