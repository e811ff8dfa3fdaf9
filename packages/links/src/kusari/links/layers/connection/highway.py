"""Highway module."""
from kusari.autograd.functions.activation import relu
from kusari.autograd.functions.activation import sigmoid
from kusari.links import link
from kusari.links.layers.connection import linear


class Highway(link.Chain):
    """Highway module (Srivastava et al., 2015): a gate ``T =
    sigmoid(transform(x))`` mixes a layer's output and its input,
    ``y = activate(plain(x)) T + x (1 - T)``.

    Args:
        in_out_size (int): Size of x and y.
        nobias (bool): Leave out the biases of both linear layers.
        activate: The activation of the plain layer.
        init_Wh, init_bh: Initializers of the plain layer's ``W`` and
            ``b``.
        init_Wt, init_bt: Initializers of the transform gate's ``W`` and
            ``b``; the gate bias defaults to -1, so that the module starts
            close to passing its input through.
    """

    def __init__(self, in_out_size, nobias=False, activate=relu.relu,
                 init_Wh=None, init_Wt=None, init_bh=None, init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = linear.Linear(in_out_size, in_out_size, nobias,
                                       init_Wh, init_bh)
            self.transform = linear.Linear(in_out_size, in_out_size, nobias,
                                           init_Wt, init_bt)

    def forward(self, x):
        """Apply the module to ``x`` ``(n, in_out_size)``."""
        gate = sigmoid.sigmoid(self.transform(x))
        return self.activate(self.plain(x)) * gate + x * (1 - gate)
