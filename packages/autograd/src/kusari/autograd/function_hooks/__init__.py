"""Function hooks shipped with Kusari (``chainer.function_hooks``).

Each is used globally for the current thread (``with TimerHook() as h:``)
or on one node (``node.add_hook(h)``).
"""
from kusari.autograd.function_hooks.cuda_profile import CUDAProfileHook  # NOQA
from kusari.autograd.function_hooks.cupy_memory_profile import CupyMemoryProfileHook  # NOQA
from kusari.autograd.function_hooks.debug_print import PrintHook  # NOQA
from kusari.autograd.function_hooks.timer import TimerHook  # NOQA
