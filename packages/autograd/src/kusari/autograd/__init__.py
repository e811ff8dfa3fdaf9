"""Kusari autograd: Variable, FunctionNode, the functions library and
gradient checking."""
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
from kusari.autograd._backprop import backward  # NOQA
from kusari.autograd.functions.math import basic_math as _basic_math

_basic_math.install_variable_arithmetics()

__version__ = '0.1.0'
