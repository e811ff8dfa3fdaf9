"""ONNX converters of Kusari's functions, one module per family.

``converters`` maps a function name (the FunctionNode's class name) to
its converter; see :mod:`kusari.onnx.functions._registry`.
"""
from kusari.onnx.functions import activation  # NOQA: F401
from kusari.onnx.functions import array  # NOQA: F401
from kusari.onnx.functions import connection  # NOQA: F401
from kusari.onnx.functions import loss  # NOQA: F401
from kusari.onnx.functions import math  # NOQA: F401
from kusari.onnx.functions import noise  # NOQA: F401
from kusari.onnx.functions import normalization  # NOQA: F401
from kusari.onnx.functions import pooling  # NOQA: F401
from kusari.onnx.functions import rnn  # NOQA: F401
from kusari.onnx.functions._registry import ConvertParams  # NOQA: F401
from kusari.onnx.functions._registry import converters  # NOQA: F401
