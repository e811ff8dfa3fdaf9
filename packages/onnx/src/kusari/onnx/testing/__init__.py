"""Testing helpers of the ONNX export: inputs, and running an exported
model in onnxruntime beside Kusari's forward."""
from kusari.onnx.testing import input_generator  # NOQA: F401
