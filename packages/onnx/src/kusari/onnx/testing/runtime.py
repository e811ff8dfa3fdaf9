"""Running an exported model in onnxruntime beside Kusari's forward."""
import numpy
import onnx

from kusari.onnx import onnx_helper
from kusari.onnx.export import export


def run(onnx_model, inputs):
    """The outputs (a list of arrays) of ``onnx_model`` run by
    onnxruntime on the CPU with ``inputs`` (a dict ``name -> array``)."""
    import onnxruntime
    session = onnxruntime.InferenceSession(
        onnx_model.SerializeToString(), providers=['CPUExecutionProvider'])
    return session.run(None, inputs)


def check_export(model, args, rtol=1e-5, atol=1e-6, **kwargs):
    """Export ``model``, validate it with ``onnx.checker``, run it in
    onnxruntime and assert its outputs equal those of the traced
    forward call to the tolerances.

    Returns:
        The ONNX ModelProto.
    """
    onnx_model, inputs, outputs = export(
        model, args, return_named_inout=True, **kwargs)
    onnx.checker.check_model(onnx_model, full_check=True)
    feeds = {name: onnx_helper.to_host(x.array)
             for name, x in inputs.items()}
    actual = run(onnx_model, feeds)
    for (name, expected), value in zip(outputs.items(), actual):
        expected = onnx_helper.to_host(expected.array)
        assert value.shape == expected.shape, (name, value.shape,
                                               expected.shape)
        assert value.dtype == expected.dtype, (name, value.dtype,
                                               expected.dtype)
        numpy.testing.assert_allclose(value, expected, rtol=rtol, atol=atol,
                                      err_msg=f'output {name!r}')
    return onnx_model
