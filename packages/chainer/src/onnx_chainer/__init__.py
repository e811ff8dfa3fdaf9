"""ONNX-Chainer's API on Kusari: ``import onnx_chainer`` as in Chainer v7.

Its module paths (``onnx_chainer.export``, ``.export_testcase``,
``.replace_func``, ``.onnx_helper``, ``.context``, ``.functions``,
``.graph``, ``.mapping``, ``.testing``) are served by the modules of
``kusari.onnx`` (see ``chainer._aliases``).
"""
from chainer import _aliases

ALIASES = {
    f'onnx_chainer.{name}': f'kusari.onnx.{name}'
    for name in ('context', 'export', 'functions', 'graph', 'mapping',
                 'onnx_helper', 'replace_func', 'testing')}
# ONNX-Chainer's export_testcase has a module of its own.
ALIASES['onnx_chainer.export_testcase'] = 'kusari.onnx.export'
_aliases.install(ALIASES)

# The submodules first: importing onnx_chainer.export later would bind the
# module over the function of the same name.
from onnx_chainer import context  # NOQA: E402,F401
from onnx_chainer import export as _export_module  # NOQA: E402,F401
from onnx_chainer import export_testcase as _export_testcase  # NOQA: E402,F401
from onnx_chainer import functions  # NOQA: E402,F401
from onnx_chainer import graph  # NOQA: E402,F401
from onnx_chainer import mapping  # NOQA: E402,F401
from onnx_chainer import onnx_helper  # NOQA: E402,F401
from onnx_chainer import replace_func  # NOQA: E402,F401
from onnx_chainer import testing  # NOQA: E402,F401
from kusari.onnx.export import MAXIMUM_OPSET_VERSION  # NOQA: E402,F401
from kusari.onnx.export import MINIMUM_OPSET_VERSION  # NOQA: E402,F401
from kusari.onnx.export import convert_parameter  # NOQA: E402,F401
from kusari.onnx.export import export  # NOQA: E402,F401
from kusari.onnx.export import export_testcase  # NOQA: E402,F401
