"""The versions ``import chainer`` runs on, as ``chainer.print_runtime_info``
prints them."""
import platform
import sys

import numpy

from chainer._version import __version__
from kusari.array import lazy_cupy


class _RuntimeInfo:
    """The platform and the versions of Chainer's API, NumPy and CuPy (or
    why CuPy cannot be used); its ``str`` is the text printed."""

    def __init__(self):
        cupy = lazy_cupy.cupy_or_none()
        self.platform_version = platform.platform()
        self.chainer_version = __version__
        self.numpy_version = numpy.__version__
        self.cupy_version = cupy.__version__ if cupy else None
        self.cupy_unavailable_reason = lazy_cupy.unavailable_reason()

    def __str__(self):
        cupy = (self.cupy_version
                or f'Not Available: {self.cupy_unavailable_reason}')
        return (f'Platform: {self.platform_version}\n'
                f'Chainer: {self.chainer_version} (Kusari drop-in)\n'
                f'ChainerX: Not Available\n'
                f'NumPy: {self.numpy_version}\n'
                f'CuPy: {cupy}\n'
                f'iDeep: Not Available\n')


def _get_runtime_info():
    return _RuntimeInfo()


def print_runtime_info(out=None):
    """Print the versions this drop-in runs on (platform, NumPy, CuPy) to
    ``out`` (standard output by default)."""
    (sys.stdout if out is None else out).write(str(_get_runtime_info()))
