"""Gradient nodes and helpers shared by the activations.

Two shapes cover them. A piecewise-linear function (relu, leaky_relu,
hard_sigmoid, ...) has a gradient ``gx = gy * coefficient`` whose
coefficient (a mask, or slopes) does not change with ``x`` almost
anywhere: :class:`ScaleGrad` is linear in ``gy`` and is its own gradient. A
smooth function (sigmoid, tanh, softplus, ...) has ``gx = gy * f'(z)``
where ``z`` is its input or its output: :class:`DerivativeGrad` fuses that
product on arrays and differentiates it again with Variables.
"""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.math.exponential import check_float_input
from kusari.autograd.variable import Variable


class OutputRetaining(function_node.FunctionNode):
    """An activation of one float ``x`` whose gradient needs only its
    output: ``y = self.compute(xp, x)``, retained for backward."""

    type_check_attributes = ()

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return self.compute(backend.get_array_module(x), x),


class ScaleGrad(function_node.FunctionNode):
    """gx = gy * coefficient, for a constant array ``coefficient`` (a bool
    mask or an array of gy's dtype, of gy's shape)."""

    def __init__(self, coefficient):
        self.coefficient = coefficient

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        return xp.multiply(gy, self.coefficient, out=xp.empty_like(gy)),

    def backward(self, indexes, grad_outputs):
        return ScaleGrad(self.coefficient).apply(grad_outputs)


class DerivativeGrad(function_node.FunctionNode):
    """gx = gy * f'(z), from ``z`` (the input or the output of ``f``) and gy.

    Subclasses implement ``derivative(xp, z)``, f'(z) as a new array of
    z's dtype (multiplied by gy in place), and ``second_derivative(z)``,
    d f'(z) / dz from the Variable z: a Variable built from differentiable
    functions, or a constant array of z's dtype. The constructor arguments
    are kept in ``self.parameters`` so that the gradient w.r.t. gy, which
    is ``ggx * f'(z)``, is this same node applied to ``(z, ggx)``.
    """

    def __init__(self, *parameters):
        self.parameters = parameters

    def forward(self, inputs):
        z, gy = inputs
        self.retain_inputs((0, 1))
        gx = self.derivative(backend.get_array_module(z), z)
        gx *= gy
        return gx,

    def backward(self, indexes, grad_outputs):
        z, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * self.second_derivative(z))
        if 1 in indexes:
            ret.append(type(self)(*self.parameters).apply((z, ggx))[0])
        return ret


def stable_sigmoid(xp, u):
    """sigmoid(u) computed in place in the fresh array ``u`` as
    ``tanh(u / 2) / 2 + 1/2``, which never overflows."""
    half = u.dtype.type(0.5)
    u *= half
    xp.tanh(u, out=u)
    u *= half
    u += half
    return u


def zeros_for_none(grads, likes):
    """``grads`` with each None replaced by a constant zero Variable
    shaped like the matching array of ``likes``: the second-order
    gradients then need no case for a missing first-order one."""
    return tuple([
        Variable(backend.get_array_module(like).zeros_like(like),
                 requires_grad=False) if g is None else g
        for g, like in zip(grads, likes)])
