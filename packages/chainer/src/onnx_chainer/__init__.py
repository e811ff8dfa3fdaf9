"""ONNX-Chainer's API on Kusari: ``import onnx_chainer`` as in Chainer v7.

Its module paths (``onnx_chainer.export``, ``.replace_func``,
``.onnx_helper``, ``.context``, ``.functions``, ``.testing``) are served
by the modules of ``kusari.onnx`` (see ``chainer._aliases``).
"""
from chainer import _aliases

ALIASES = {
    f'onnx_chainer.{name}': f'kusari.onnx.{name}'
    for name in ('context', 'export', 'functions', 'onnx_helper',
                 'replace_func', 'testing')}
_aliases.install(ALIASES)

# The submodules first: importing onnx_chainer.export later would bind the
# module over the function of the same name.
from onnx_chainer import context  # NOQA: E402,F401
from onnx_chainer import export as _export_module  # NOQA: E402,F401
from onnx_chainer import functions  # NOQA: E402,F401
from onnx_chainer import onnx_helper  # NOQA: E402,F401
from onnx_chainer import replace_func  # NOQA: E402,F401
from onnx_chainer import testing  # NOQA: E402,F401
from kusari.onnx.export import export  # NOQA: E402,F401
from kusari.onnx.export import export_testcase  # NOQA: E402,F401
