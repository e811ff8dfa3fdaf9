"""The "Variables and Derivatives" and "Higher-Order Derivatives" walkthrough
of Chainer's documentation, run on Kusari through ``import chainer``.

Every printed value is the one Chainer's documentation prints.
"""
import numpy as np

import chainer
from chainer import Variable


def show(expression, value):
    print(f'>>> {expression}')
    print(repr(value))


def variables_and_derivatives():
    print('# Variables and Derivatives')
    x = Variable(np.array([5], dtype=np.float32))
    y = x**2 - 2 * x + 1
    show('y.array', y.array)
    y.backward()
    show('x.grad', x.grad)

    z = 2 * x
    y = x**2 - z + 1
    y.backward(retain_grad=True)
    show('z.grad', z.grad)

    x = Variable(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32))
    y = x**2 - 2 * x + 1
    y.grad = np.ones((2, 3), dtype=np.float32)
    y.backward()
    show('x.grad', x.grad)


def higher_order_derivatives():
    print('# Higher-Order Derivatives')
    x = chainer.Variable(np.array([[0, 2, 3], [4, 5, 6]], dtype=np.float32))
    y = x ** 3
    y.grad = np.ones((2, 3), dtype=np.float32)
    y.backward(enable_double_backprop=True)
    show('x.grad_var', x.grad_var)
    assert x.grad_var.array is x.grad
    assert (x.grad == (3 * x**2).array).all()

    gx = x.grad_var
    x.cleargrad()
    gx.grad = np.ones((2, 3), dtype=np.float32)
    gx.backward()
    show('x.grad', x.grad)
    assert (x.grad == (6 * x).array).all()


if __name__ == '__main__':
    variables_and_derivatives()
    higher_order_derivatives()
