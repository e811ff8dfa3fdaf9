"""Operands of different float dtypes, as Chainer accepts them in products.

linear, matmul, tensordot, sparse_matmul and the convolution family take
float16, float32 and float64 operands in any mix. The product is computed
in NumPy's promotion of the operands' dtypes and the result is either that
promotion (matmul) or cast to the input x's dtype (linear, convolutions);
the gradient of each input comes back in that input's own dtype, as a
Variable's gradient must.

Operands of one dtype, the usual case, pay one dtype comparison: a node
whose forward casts its result sets its ``_mixed`` flag there when they
differ, and its backward casts the gradients (``as_dtype_of``) only under
that flag; one whose result is NumPy's promotion (matmul) compares in its
backward instead.
"""
from kusari.autograd.functions.array.cast import cast


def as_dtype_of(x, variable):
    """The Variable ``variable`` in the dtype of ``x`` (a gradient in its
    input's dtype, a product in x's): itself where the dtypes agree, a
    differentiable cast otherwise."""
    return variable if variable.dtype == x.dtype else cast(variable, x.dtype)
