"""Kusari autograd: Variable, FunctionNode, the functions library and
gradient checking.

Two layers: the engine (Variable, FunctionNode, the backward pass, hooks,
type checks, gradient checks; the modules at this level) and the function
library above it (``functions``, F). The engine imports nothing of the
library; this module assembles both.
"""
from kusari.array import parts as _parts
from kusari.autograd.function import Function  # NOQA
from kusari.autograd.function import FunctionAdapter  # NOQA
from kusari.autograd.function_node import FunctionNode  # NOQA
from kusari.autograd.function_node import grad  # NOQA
from kusari.autograd.graph_mode import force_backprop_mode  # NOQA
from kusari.autograd.graph_mode import no_backprop_mode  # NOQA
from kusari.autograd.variable import Parameter  # NOQA
from kusari.autograd.variable import Variable  # NOQA
from kusari.autograd.variable import VariableNode  # NOQA
from kusari.autograd.variable import as_array  # NOQA
from kusari.autograd.variable import as_variable  # NOQA
# (Importing the backward pass also connects Variable.backward and grad to
# it; see _state.)
from kusari.autograd._backprop import backward  # NOQA
from kusari.autograd.functions import _variable_methods

# The library gives the engine's Variable its operators and convenience
# methods (x + y, x[i], x.T, x.reshape, x.mean), here and nowhere else.
_variable_methods.install()

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-autograd')
