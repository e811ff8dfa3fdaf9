"""The functions an export records as one node each although they apply
no single FunctionNode of their own.

``sign`` records no graph at all (it is piecewise constant), and the
n-step RNNs are made of many small functions; during an export
(:func:`patch_functions`) each is wrapped by
:func:`~kusari.onnx.replace_func.fake_as_funcnode` under its own name, so
that ``sign`` is not frozen into a constant and an RNN becomes ONNX's
LSTM, GRU or RNN operator. As in ONNX-Chainer, a function is replaced
where it is looked up: as ``F.<name>`` (``chainer.functions``) or as an
attribute of its module (as the NStep links call it), not where a caller
imported the function object itself.
"""
import contextlib

from kusari.autograd import functions
from kusari.autograd.functions.connection import n_step_gru
from kusari.autograd.functions.connection import n_step_lstm
from kusari.autograd.functions.connection import n_step_rnn
from kusari.autograd.functions.math import sign
from kusari.onnx.functions import converters  # NOQA: F401
from kusari.onnx.replace_func import fake_as_funcnode

_PATCHED = {
    sign: ('sign',),
    n_step_gru: ('n_step_gru', 'n_step_bigru'),
    n_step_lstm: ('n_step_lstm', 'n_step_bilstm'),
    n_step_rnn: ('n_step_rnn', 'n_step_birnn'),
}


@contextlib.contextmanager
def patch_functions():
    """Within the block, ``F.sign`` and the n-step RNN functions each
    apply one node named as the function (see the module's docstring)."""
    places = [(module, name) for source, names in _PATCHED.items()
              for module in (functions, source) for name in names]
    originals = [(module, name, getattr(module, name))
                 for module, name in places]
    wrapped = {name: fake_as_funcnode(original, name,
                                      experimental_warning=False)
               for _, name, original in originals}
    try:
        for module, name, _ in originals:
            setattr(module, name, wrapped[name])
        yield
    finally:
        for module, name, original in originals:
            setattr(module, name, original)
