"""Printing what every function receives, for debugging."""
import sys
import warnings

from kusari.array import backend
from kusari.autograd import function_hook
from kusari.autograd.variable import Variable


class PrintHook(function_hook.FunctionHook):
    """Prints, before each function's forward and backward, its label and
    a description of its input arrays, and before backward also of the
    gradients of its outputs.

    An input not retained for backward shows as ``(removed)``; a missing
    output gradient as ``None``.

    Args:
        sep: deprecated and ignored.
        end: the text ending each printed block.
        file: where to print; ``sys.stdout`` (at print time) by default.
    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=None):
        if sep is not None:
            warnings.warn('PrintHook: the sep argument is deprecated and '
                          'has no effect', DeprecationWarning, stacklevel=2)
        self.sep = sep
        self.end = end
        self.file = file

    def _print(self, text):
        print(text, end=self.end,
              file=sys.stdout if self.file is None else self.file)

    def _report(self, function, in_data, out_grad=None):
        self._print(f'function\t{function.label}')
        self._print('input data')
        for x in in_data:
            self._print('(removed)' if x is None
                        else Variable(x).debug_print())
        if out_grad is None:
            return
        self._print('output gradient')
        for gy in out_grad:
            if gy is None:
                self._print('None')
                continue
            # Shown as the gradient of a Variable, as Variable.debug_print
            # describes gradients.
            zeros = backend.get_array_module(gy).zeros_like(gy)
            self._print(Variable(zeros, grad=gy).debug_print())

    def forward_preprocess(self, function, in_data):
        self._report(function, in_data)

    def backward_preprocess(self, function, in_data, out_grad):
        self._report(function, in_data, out_grad)
