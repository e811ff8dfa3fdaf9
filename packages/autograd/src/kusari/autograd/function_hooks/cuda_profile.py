"""NVTX ranges around every function application, for CUDA profilers."""
from kusari.autograd import function_hook
from kusari.autograd.function_hooks import _profile


class CUDAProfileHook(function_hook.FunctionHook):
    """Marks each function's forward and backward as an NVTX range named
    after its label, so that ``nvprof`` or Nsight Systems show which
    function launched which kernels.

    Raises:
        RuntimeError: when made where CuPy or a GPU is missing.
    """

    name = 'CUDAProfileHook'

    def __init__(self):
        self._nvtx = _profile.require_cupy('CUDAProfileHook').cuda.nvtx

    def forward_preprocess(self, function, in_data):
        self._nvtx.RangePush(f'{function.label}.forward')

    def forward_postprocess(self, function, in_data):
        self._nvtx.RangePop()

    def backward_preprocess(self, function, in_data, out_grad):
        self._nvtx.RangePush(f'{function.label}.backward')

    def backward_postprocess(self, function, in_data, out_grad):
        self._nvtx.RangePop()
